import { spawn } from 'node:child_process';
import { checkEngineSandbox } from '../kit/sandbox.ts';

/**
 * KiCad's board engine: the Python module `pcbnew` of Debian's `kicad` package, importable only by the system
 * interpreter (another python3 earlier on PATH may not see Debian's dist-packages). `EDA_PYTHON` (test seam and for
 * other layouts) names a different interpreter.
 */
export const KICAD_PYTHON = () => process.env.EDA_PYTHON ?? '/usr/bin/python3';

/** The tools that need the board engine; the others read KiCad's files natively and work without KiCad. */
export const ENGINE_TOOLS = ['run_drc', 'export_gerber', 'auto_route'] as const;

export const KICAD_MISSING =
  "KiCad's board engine is not installed: /usr/bin/python3 cannot import pcbnew (Debian package kicad)";

let probe: { at: number; version: string | null } | undefined;
const PROBE_TTL_MS = 60_000;

/** KiCad's version when `pcbnew` imports (cached a minute), else null. Never throws. */
export async function pcbnewVersion(): Promise<string | null> {
  if (probe && Date.now() - probe.at < PROBE_TTL_MS) return probe.version;
  const version = await new Promise<string | null>((resolve) => {
    const child = spawn(KICAD_PYTHON(), ['-c', 'import pcbnew; print(pcbnew.Version())'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8' },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code === 0 && out.trim() ? out.trim() : null));
  });
  probe = { at: Date.now(), version };
  return version;
}

/** Forget the cached probe (tests that change EDA_PYTHON). */
export function resetPcbnewProbe(): void {
  probe = undefined;
}

/**
 * The adapter's health: healthy with KiCad and the sandbox; degraded (the native tools still work) naming the tools
 * that are unavailable and what to install otherwise.
 */
export async function kicadEngineStatus(): Promise<{ status: 'healthy' | 'degraded'; message?: string }> {
  const unavailable = ENGINE_TOOLS.map((t) => `eda.${t}`).join(', ');
  if (!(await pcbnewVersion())) return { status: 'degraded', message: `${KICAD_MISSING}; unavailable: ${unavailable}` };
  const sandbox = await checkEngineSandbox();
  if (sandbox) return { status: 'degraded', message: `${sandbox}; unavailable: ${unavailable}` };
  return { status: 'healthy' };
}
