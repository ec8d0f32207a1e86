import { spawn } from 'node:child_process';
import type { EngineCommand } from '../sandbox.ts';

/** Most bytes kept of each of stdout and stderr unless the caller says (`maxBytes`). */
const MAX_STREAM_BYTES = 256 * 1024;

/** How one engine run ended. */
export interface EngineRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The run was stopped by the caller's AbortSignal (timeout or cancellation): its process group was killed. */
  aborted: boolean;
}

/**
 * Spawns one engine command (kit/sandbox.ts `engineCommand`: bwrap-wrapped unless the sandbox is off) in a process
 * group of its own, in the command's environment (never the service's), keeping the first `maxBytes` (256 KB) of stdout and stderr. When `signal` aborts, the whole group is killed and
 * the run resolves with `aborted: true`; a program that cannot start rejects with the spawn error.
 */
export function spawnEngine(
  cmd: EngineCommand,
  opts: { cwd: string; signal: AbortSignal; maxBytes?: number },
): Promise<EngineRun> {
  const { signal } = opts;
  if (signal.aborted) return Promise.resolve({ exitCode: null, signal: null, stdout: '', stderr: '', aborted: true });
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd: opts.cwd,
      env: cmd.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = collector(opts.maxBytes ?? MAX_STREAM_BYTES);
    const err = collector(opts.maxBytes ?? MAX_STREAM_BYTES);
    child.stdout.on('data', out.add);
    child.stderr.on('data', err.add);
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.once('close', (code, sig) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ exitCode: code, signal: sig, stdout: out.text(), stderr: err.text(), aborted });
    });
  });
}

function collector(max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add: (b: Buffer) => {
      if (size >= max) return;
      chunks.push(b.subarray(0, max - size));
      size += b.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}
