import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  engineLimits,
  PRLIMIT_MISSING,
  prlimitOptions,
  runPidsCgroup,
  setEngineLimits,
  type EngineLimits,
} from './engine-limits.ts';
import { ToolUnavailableError } from './tool.ts';

/**
 * Engine sandboxing (README "Engine sandbox"): every engine subprocess (ccx, gmsh, ngspice) runs under bubblewrap with
 * the whole filesystem read-only (the workspace included), its call's scratch folder the one writable place (and a
 * private /tmp that vanishes with the run), a fresh /dev and /proc, every namespace unshared (no network but a private loopback, no other
 * process visible, no IPC), no capabilities, a session of its own, and killed when its parent dies; in an environment of
 * its own (engineEnv), never the service's.
 * `SERVICE_ENGINE_SANDBOX=off` runs engines bare, for deployments that isolate each adapter in a container of its own.
 */
export const ENGINE_SANDBOXES = ['bwrap', 'off'] as const;
export type EngineSandbox = (typeof ENGINE_SANDBOXES)[number];

/** What a node needing the sandbox reports when bubblewrap is missing. */
export const BWRAP_MISSING =
  'the engine sandbox bwrap is not installed: not found on PATH (Debian package bubblewrap); SERVICE_ENGINE_SANDBOX=off only where each adapter runs in a container of its own';

/** The process's mode: set once from the configuration by the adapters that run engines; bwrap until then. */
let processMode: EngineSandbox = 'bwrap';

export function setEngineSandbox(mode: EngineSandbox): void {
  processMode = mode;
}

export function engineSandbox(): EngineSandbox {
  return processMode;
}

/** The engine settings of the configuration (brokers/config.ts), set once by each adapter that runs engines. */
export function configureEngines(config: {
  SERVICE_ENGINE_SANDBOX: EngineSandbox;
  SERVICE_ENGINE_MAX_PROCS: number;
  SERVICE_ENGINE_MEMORY_MB: number;
  SERVICE_ENGINE_CPU_SECONDS: number;
}): void {
  setEngineSandbox(config.SERVICE_ENGINE_SANDBOX);
  setEngineLimits({
    maxProcs: config.SERVICE_ENGINE_MAX_PROCS,
    memoryMb: config.SERVICE_ENGINE_MEMORY_MB,
    cpuSeconds: config.SERVICE_ENGINE_CPU_SECONDS,
  });
}

/** The absolute path of an executable found on `searchPath` (default `PATH`), or undefined. No shell involved. */
export async function findProgram(name: string, searchPath = process.env.PATH ?? ''): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      await fs.access(candidate, fs.constants.X_OK);
      if ((await fs.stat(candidate)).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Programs the sandbox itself runs (bwrap, prlimit), found once per PATH value and process. */
const sandboxPrograms = new Map<string, string>();

/**
 * `name` found on the current PATH, cached by name and PATH: engineCommand runs per engine call, the lookup stats each
 * PATH folder. A miss is not cached (bubblewrap installed later is found without a restart); a changed PATH (tests
 * put stand-ins first) looks again. `real` gives the real path (a PATH folder under /tmp holding a symlink is hidden
 * inside the sandbox).
 */
async function sandboxProgram(name: 'bwrap' | 'prlimit', real = false): Promise<string | undefined> {
  const key = `${name}\0${real}\0${process.env.PATH ?? ''}`;
  const cached = sandboxPrograms.get(key);
  if (cached) return cached;
  const found = await findProgram(name);
  if (!found) return undefined;
  const exe = real ? await fs.realpath(found) : found;
  sandboxPrograms.set(key, exe);
  return exe;
}

/**
 * The environment of every engine run, sandboxed or not: PATH, HOME and TMPDIR set to the call's scratch folder, the
 * locale, and what the runner adds for its engine (`extra`: ngspice's SPICE_ASCIIRAWFILE, ccx's OMP_NUM_THREADS...).
 * Nothing of the service's own environment (its admin token, MCP key, database URL) reaches an engine (issue 27).
 */
export function engineEnv(scratch: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH || '/usr/bin:/bin',
    HOME: scratch,
    TMPDIR: scratch,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    ...extra,
  };
}

/**
 * bwrap's argument list for running `exe args` with `scratch` writable and `cwd` as its working folder, in exactly the
 * environment `env` (bwrap clears its own first). Order matters:
 * the read-only root first, then a fresh /dev and /proc and a private, empty /tmp (ngspice's `tmpfile()` writes there
 * whatever TMPDIR says; it vanishes with the run), then the folder under /tmp that holds the scratch folder (a workspace
 * under /tmp: its includes stay readable) read-only again, then the service's own folders the engine reads (`readOnly`:
 * its fixed scripts, hidden by the private /tmp when the service itself lives under /tmp; decision 0095) read-only at
 * their own paths, and the scratch bind last, on top of everything.
 */
export function bwrapArgs(
  exe: string,
  args: readonly string[],
  scratch: string,
  cwd: string = scratch,
  env: Readonly<Record<string, string>> = engineEnv(scratch),
  readOnly: readonly string[] = [],
): string[] {
  const under = path.relative('/tmp', scratch).split(path.sep)[0];
  const tmpAnchor = under && under !== '..' && !path.isAbsolute(under) ? path.join('/tmp', under) : undefined;
  return [
    ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
    ...(tmpAnchor ? ['--ro-bind', tmpAnchor, tmpAnchor] : []),
    ...readOnly.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...['--bind', scratch, scratch],
    ...['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'],
    '--clearenv',
    ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v]),
    ...['--chdir', cwd, '--', exe, ...args],
  ];
}

/**
 * The command of one engine run: the program resolved on PATH, wrapped in bwrap unless the sandbox is off, and the
 * environment to spawn it with (engineEnv: never the service's own).
 */
export interface EngineCommand {
  command: string;
  args: string[];
  sandboxed: boolean;
  env: Record<string, string>;
}

/**
 * Builds the spawn of one engine run. `program` is a name looked up on PATH (or an absolute path); missing, it is
 * TOOL_UNAVAILABLE with `missing` as the message. With the sandbox on and bwrap missing it is TOOL_UNAVAILABLE naming
 * the Debian package bubblewrap; nothing runs unsandboxed by accident. `env` is what the engine needs besides
 * engineEnv's minimum. `readOnly` names the service's own folders the engine reads (the fixed scripts it is given by
 * path): visible read-only at their paths wherever the service is installed, /tmp included (decision 0095).
 */
export async function engineCommand(
  program: string,
  args: readonly string[],
  opts: {
    scratch: string;
    cwd?: string;
    missing: string;
    mode?: EngineSandbox;
    env?: Record<string, string>;
    limits?: EngineLimits;
    readOnly?: readonly string[];
  },
): Promise<EngineCommand> {
  const exe = path.isAbsolute(program) ? program : await findProgram(program);
  if (!exe) throw new ToolUnavailableError(opts.missing, { program });
  const scratch = await fs.realpath(opts.scratch);
  const env = engineEnv(scratch, opts.env);
  if ((opts.mode ?? processMode) === 'off') return { command: exe, args: [...args], sandboxed: false, env };
  const bwrap = await sandboxProgram('bwrap');
  if (!bwrap) throw new ToolUnavailableError(BWRAP_MISSING, { program: 'bwrap', package: 'bubblewrap' });
  const cwd = opts.cwd ? await fs.realpath(opts.cwd) : scratch;
  const readOnly = await Promise.all((opts.readOnly ?? []).map((dir) => fs.realpath(dir)));
  // The limits (kit/engine-limits.ts): prlimit inside the sandbox, and a pids cgroup of the run's own where writable.
  const limits = opts.limits ?? engineLimits();
  let inner = [exe, ...args];
  const rlimits = prlimitOptions(limits);
  if (rlimits.length) {
    // Its real path: a PATH folder under /tmp (a symlink there) is not inside the sandbox.
    const prlimit = await sandboxProgram('prlimit', true);
    if (!prlimit) throw new ToolUnavailableError(PRLIMIT_MISSING, { program: 'prlimit', package: 'util-linux' });
    inner = [prlimit, ...rlimits, '--', ...inner];
  }
  const sandbox = bwrapArgs(inner[0]!, inner.slice(1), scratch, cwd, env, readOnly);
  const procs = runPidsCgroup(limits.maxProcs);
  if (!procs) return { command: bwrap, args: sandbox, sandboxed: true, env };
  // Joins the cgroup, then becomes bwrap: every process of the run is counted from its first.
  const join = ['-c', 'echo $$ > "$0" && exec "$@"', procs, bwrap, ...sandbox];
  return { command: '/bin/sh', args: join, sandboxed: true, env };
}

/**
 * The adapter health of the sandbox: null when it is off or works, else why it cannot run (bwrap missing, naming
 * bubblewrap, or bwrap failing to start a sandbox, e.g. where user namespaces are disabled).
 */
export async function checkEngineSandbox(mode: EngineSandbox = processMode): Promise<string | null> {
  if (mode === 'off') return null;
  const bwrap = await sandboxProgram('bwrap');
  if (!bwrap) return BWRAP_MISSING;
  if (prlimitOptions(engineLimits()).length && !(await sandboxProgram('prlimit', true))) return PRLIMIT_MISSING;
  const scratch = await fs.realpath(os.tmpdir());
  return new Promise((resolve) => {
    const child = spawn(bwrap, bwrapArgs('/bin/true', [], scratch), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: engineEnv(scratch),
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(0, 2000)));
    child.once('error', (e) => resolve(`the engine sandbox bwrap does not start: ${e.message}`));
    child.once('close', (code) =>
      resolve(
        code === 0 ? null : `the engine sandbox bwrap does not start (exit code ${code}): ${err.trim() || 'no output'}`,
      ),
    );
  });
}
