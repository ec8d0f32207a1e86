import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnEngine } from '../kit/engines/spawn.ts';
import { checkEngineSandbox, engineCommand, findProgram } from '../kit/sandbox.ts';

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

/**
 * KiCad 9's command line, `kicad-cli` (Debian's `kicad` from bookworm-backports): DRC and the fabrication files.
 * SERVICE_EDA_KICAD_CLI names another program (set once by the adapter from the configuration).
 */
let kicadCli = 'kicad-cli';
export const KICAD_CLI = () => kicadCli;

export function setKicadCli(program: string): void {
  if (program !== kicadCli) resetPcbnewProbe();
  kicadCli = program;
}

/** The tools that run on KiCad's command line; auto_route edits the board through pcbnew. */
export const CLI_TOOLS = ['run_drc', 'export_gerber'] as const;
/** The tools that need a KiCad engine; the others read KiCad's files natively and work without KiCad. */
export const ENGINE_TOOLS = [...CLI_TOOLS, 'auto_route'] as const;

/** The KiCad major the engine side is written for (kicad-cli's verbs and its JSON DRC report). */
export const KICAD_MAJOR = 9;

export const KICAD_CLI_MISSING =
  "KiCad 9's command line kicad-cli is not installed (SERVICE_EDA_KICAD_CLI, default kicad-cli on PATH, is missing or not KiCad 9): install Debian package kicad from the suite bookworm-backports (apt-get install -t bookworm-backports kicad)";

export const KICAD_MISSING =
  "KiCad's board engine is not installed: the interpreter SERVICE_EDA_PYTHON names (default /usr/bin/python3) cannot import pcbnew (Debian package kicad from the suite bookworm-backports)";

/** eda.auto_route's router (ROUTING.md). */
export const ROUTER_MISSING =
  'the autorouter route-rnd is not installed (not found on PATH; Debian package route-rnd); unavailable: eda.auto_route';

const PROBE_TTL_MS = 60_000;
let generation = 0;

/**
 * A probe of the interpreter's world, cached a minute; concurrent callers share the one in flight, and a reset (another
 * interpreter) drops an answer still on its way.
 */
function cachedProbe<T>(run: () => Promise<T>): { get(): Promise<T>; reset(): void } {
  let cached: { at: number; value: T } | undefined;
  let inflight: Promise<T> | undefined;
  return {
    get() {
      if (cached && Date.now() - cached.at < PROBE_TTL_MS) return Promise.resolve(cached.value);
      const gen = generation;
      inflight ??= run().then((value) => {
        if (gen === generation) {
          cached = { at: Date.now(), value };
          inflight = undefined;
        }
        return value;
      });
      return inflight;
    },
    reset() {
      cached = undefined;
      inflight = undefined;
    },
  };
}

/** A probe that has not answered in this long is taken as no answer. */
const PROBE_TIMEOUT_MS = 30_000;

/**
 * Runs the interpreter on a one-line program; its trimmed stdout when it exits 0 with output, else null. Isolated
 * (issue 27, finding 9): `python3 -I` (no user site folder, no PYTHON* variable, not the current folder on sys.path),
 * in the engine sandbox, with HOME and the working folder a private empty folder made for this run and removed after.
 */
async function runPython(program: string): Promise<string | null> {
  return runProbe(KICAD_PYTHON(), ['-I', '-c', program], KICAD_MISSING);
}

/** One sandboxed probe run (a private empty HOME and working folder, removed after): trimmed stdout on exit 0. */
async function runProbe(exe: string, args: string[], missing: string): Promise<string | null> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'kicad-probe-'));
  try {
    const cmd = await engineCommand(exe, args, { scratch: home, missing });
    const run = await spawnEngine(cmd, { cwd: home, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return run.exitCode === 0 && run.stdout.trim() ? run.stdout.trim() : null;
  } catch {
    return null; // no interpreter, no sandbox: no answer
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}

/** Importing pcbnew loads KiCad's libraries (about a second of CPU): done for a tool run, never for health. */
const versionProbe = cachedProbe(() => runPython('import pcbnew; print(pcbnew.Version())'));
/** Whether the interpreter finds the pcbnew module (no import: tens of milliseconds), for health. */
const foundProbe = cachedProbe(
  async () =>
    (await runPython("import importlib.util; print('yes' if importlib.util.find_spec('pcbnew') else '')")) === 'yes',
);

/** `kicad-cli version` (about half a second): its version when it runs, else null. */
const cliProbe = cachedProbe(async () => {
  const out = await runProbe(KICAD_CLI(), ['version'], KICAD_CLI_MISSING);
  return out && /^\d+\.\d+/.test(out) ? out.split('\n')[0]!.trim() : null;
});

/** Forget the cached probes (a test that changed the interpreter's world). */
export function resetPcbnewProbe(): void {
  generation++;
  versionProbe.reset();
  foundProbe.reset();
  cliProbe.reset();
}

/** kicad-cli's version when it runs and is KiCad 9 or later (cached a minute), else null. Never throws. */
export async function kicadCliVersion(): Promise<string | null> {
  const v = await cliProbe.get();
  return v && Number(v.split('.')[0]) >= KICAD_MAJOR ? v : null;
}

/** KiCad's version when `pcbnew` imports (cached a minute), else null. Never throws. */
export const pcbnewVersion = (): Promise<string | null> => versionProbe.get();

/** Whether the interpreter finds `pcbnew` (cached a minute), without importing it. Never throws. */
export const pcbnewFound = (): Promise<boolean> => foundProbe.get();

/**
 * The adapter's health (it never imports pcbnew: a found module is enough; a run that cannot import it fails with
 * TOOL_UNAVAILABLE): healthy with KiCad 9 (kicad-cli and pcbnew), route-rnd and the sandbox; degraded otherwise (the
 * native tools still work) naming the tools that are unavailable and what to install: kicad-cli for DRC and
 * Gerbers, pcbnew and route-rnd for auto_route.
 */
export async function kicadEngineStatus(): Promise<EngineStatus> {
  const names = (tools: readonly string[]) => tools.map((t) => `eda.${t}`).join(', ');
  // The probe itself runs in the sandbox: without one it cannot tell whether KiCad is there.
  const sandbox = await checkEngineSandbox();
  if (sandbox)
    return {
      status: 'degraded',
      message: `${sandbox}; unavailable: ${names(ENGINE_TOOLS)}`,
      unavailable: [...ENGINE_TOOLS],
    };
  const unavailable: string[] = [];
  const why: string[] = [];
  if (!(await kicadCliVersion())) {
    unavailable.push(...CLI_TOOLS);
    why.push(`${KICAD_CLI_MISSING}; unavailable: ${names(CLI_TOOLS)}`);
  }
  if (!(await pcbnewFound())) {
    unavailable.push('auto_route');
    why.push(`${KICAD_MISSING}; unavailable: eda.auto_route`);
  } else if (!(await findProgram('route-rnd'))) {
    unavailable.push('auto_route');
    why.push(ROUTER_MISSING);
  }
  return unavailable.length ? { status: 'degraded', message: why.join('. '), unavailable } : { status: 'healthy' };
}
