import { spawn } from 'node:child_process';
import { engineCommand } from '../kit/sandbox.ts';
import type { NgspiceRun } from './outcome.ts';

export { findProgram } from '../kit/sandbox.ts';

/** Most bytes kept of each of stdout and stderr (a `.print` card can print whole tables). */
const MAX_STREAM_BYTES = 1 << 20;

/**
 * Runs `ngspice -b -r <raw> <netlist>` in `cwd` with ASCII raw output (`SPICE_ASCIIRAWFILE=1`) and `HOME` set to `cwd`
 * (no user `.spiceinit`), sandboxed with `cwd` (the call's scratch folder) its only writable place (kit/sandbox.ts). The
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
  });
  if (signal.aborted) throw signal.reason;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd,
      env: { ...process.env, SPICE_ASCIIRAWFILE: '1', HOME: cwd },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = collector();
    const err = collector();
    child.stdout.on('data', out.add);
    child.stderr.on('data', err.add);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const onAbort = () => {
      kill();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code, sig) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ exitCode: code, signal: sig, stdout: out.text(), stderr: err.text() });
    });
  });
}

function collector() {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add: (b: Buffer) => {
      if (size >= MAX_STREAM_BYTES) return;
      chunks.push(b.subarray(0, MAX_STREAM_BYTES - size));
      size += b.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}
