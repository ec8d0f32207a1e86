import { spawn } from 'node:child_process';
import { checkEngineSandbox, findProgram } from '../kit/sandbox.ts';

import type { EngineStatus } from '../kit/adapter.service.ts';

/**
 * KiCad's board engine: the Python module `pcbnew` of Debian's `kicad` package, importable only by the system
 * interpreter (another python3 earlier on PATH may not see Debian's dist-packages). SERVICE_EDA_PYTHON names another
 * interpreter (set once by the adapter from the configuration).
 */
let python = '/usr/bin/python3';
export const KICAD_PYTHON = () => python;

export function setKicadPython(interpreter: string): void {
  if (interpreter !== python) resetPcbnewProbe();
  python = interpreter;
}

/** The tools that need the board engine; the others read KiCad's files natively and work without KiCad. */
export const ENGINE_TOOLS = ['run_drc', 'export_gerber', 'auto_route'] as const;

export const KICAD_MISSING =
  "KiCad's board engine is not installed: the interpreter SERVICE_EDA_PYTHON names (default /usr/bin/python3) cannot import pcbnew (Debian package kicad)";

/** eda.auto_route's router (ROUTING.md). */
export const ROUTER_MISSING =
  'the autorouter route-rnd is not installed (not found on PATH; Debian package route-rnd); unavailable: eda.auto_route';

let probe: { at: number; version: string | null } | undefined;

const PROBE_TTL_MS = 60_000;

/** Forget the cached probe (a test that changed the interpreter's world). */
export function resetPcbnewProbe(): void {
  probe = undefined;
  inflight = undefined;
  generation++;
}

/** KiCad's version when `pcbnew` imports (cached a minute), else null. Never throws. */
export function pcbnewVersion(): Promise<string | null> {
  if (probe && Date.now() - probe.at < PROBE_TTL_MS) return Promise.resolve(probe.version);
  // One import at a time: concurrent health checks (and the warm-up at start) share the probe in flight.
  const gen = generation;
  inflight ??= importPcbnew().then((version) => {
    // A reset meanwhile (another interpreter) drops this answer from the cache.
    if (gen === generation) {
      probe = { at: Date.now(), version };
      inflight = undefined;
    }
    return version;
  });
  return inflight;
}

let inflight: Promise<string | null> | undefined;
let generation = 0;

function importPcbnew(): Promise<string | null> {
  return new Promise<string | null>((resolve) => {
    const child = spawn(KICAD_PYTHON(), ['-c', 'import pcbnew; print(pcbnew.Version())'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8' },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code === 0 && out.trim() ? out.trim() : null));
  });
}

/**
 * The adapter's health: healthy with KiCad and the sandbox; degraded (the native tools still work) naming the tools
 * that are unavailable and what to install otherwise.
 */
export async function kicadEngineStatus(): Promise<EngineStatus> {
  const unavailable = [...ENGINE_TOOLS];
  const names = unavailable.map((t) => `eda.${t}`).join(', ');
  if (!(await pcbnewVersion()))
    return { status: 'degraded', message: `${KICAD_MISSING}; unavailable: ${names}`, unavailable };
  const sandbox = await checkEngineSandbox();
  if (sandbox) return { status: 'degraded', message: `${sandbox}; unavailable: ${names}`, unavailable };
  if (!(await findProgram('route-rnd')))
    return { status: 'degraded', message: ROUTER_MISSING, unavailable: ['auto_route'] };
  return { status: 'healthy' };
}
