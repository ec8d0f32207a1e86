import { spawnEngine } from '../kit/engines/spawn.ts';
import { engineCommand } from '../kit/sandbox.ts';
import type { NgspiceRun } from './outcome.ts';

export { findProgram } from '../kit/sandbox.ts';

/** Most bytes kept of each of stdout and stderr (a `.print` card can print whole tables). */
const MAX_STREAM_BYTES = 1 << 20;

/**
 * Runs `ngspice -b -r <raw> <netlist>` in `cwd` with ASCII raw output (`SPICE_ASCIIRAWFILE=1`) and `HOME` set to `cwd`
 * (no user `.spiceinit`; kit/sandbox.ts engineEnv, nothing of the service's environment), sandboxed with `cwd` (the call's scratch folder) its only writable place (kit/sandbox.ts). The
 * process leads its own group; when `signal` aborts (timeout or cancellation) the whole group is killed and the promise
 * rejects with the abort reason.
 */
export async function runNgspice(
  exe: string,
  opts: { cwd: string; netlist: string; raw: string; signal: AbortSignal },
): Promise<NgspiceRun> {
  const { cwd, netlist, raw, signal } = opts;
  if (signal.aborted) throw signal.reason;
  const cmd = await engineCommand(exe, ['-b', '-r', raw, netlist], {
    scratch: cwd,
    missing: 'ngspice is not installed (not found on PATH; Debian package ngspice)',
    env: { SPICE_ASCIIRAWFILE: '1' },
  });
  if (signal.aborted) throw signal.reason;
  const run = await spawnEngine(cmd, { cwd, signal, maxBytes: MAX_STREAM_BYTES });
  if (run.aborted) throw signal.reason;
  return { exitCode: run.exitCode, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}
