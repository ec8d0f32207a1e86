import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { NgspiceRun } from './outcome.ts';

/** Most bytes kept of each of stdout and stderr (a `.print` card can print whole tables). */
const MAX_STREAM_BYTES = 1 << 20;

/** The absolute path of an executable found on `searchPath` (default `PATH`), or undefined. */
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

/**
 * Runs `ngspice -b -r <raw> <netlist>` in `cwd` with ASCII raw output (`SPICE_ASCIIRAWFILE=1`) and `HOME` set to `cwd`
 * (no user `.spiceinit`). The process leads its own group; when `signal` aborts (timeout or cancellation) the whole group
 * is killed and the promise rejects with the abort reason.
 */
export function runNgspice(exe: string, opts: { cwd: string; netlist: string; raw: string; signal: AbortSignal }): Promise<NgspiceRun> {
  const { cwd, netlist, raw, signal } = opts;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const child = spawn(exe, ['-b', '-r', raw, netlist], {
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
