import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineCommand } from '../kit/sandbox.ts';

/** Our fixed pcbnew scripts (the board is data passed by path, never code). */
export const PCBNEW_SCRIPTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pcbnew');

/** Most bytes kept of each of stdout and stderr. */
const MAX_STREAM_BYTES = 256 * 1024;

export interface EngineRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The run was stopped by `signal` (timeout or cancellation). */
  aborted: boolean;
}

/**
 * Runs one engine program sandboxed (kit/sandbox.ts: the scratch folder its only writable place, HOME and TMPDIR
 * there), in its own process group; when `signal` aborts, the group is killed and the run resolves with
 * `aborted: true`. `missing` is the TOOL_UNAVAILABLE message when the program is not installed.
 */
export async function runEngine(
  program: string,
  args: readonly string[],
  opts: { scratch: string; signal: AbortSignal; missing: string },
): Promise<EngineRun> {
  const cmd = await engineCommand(program, args, { scratch: opts.scratch, missing: opts.missing });
  const { signal } = opts;
  if (signal.aborted) return { exitCode: null, signal: null, stdout: '', stderr: '', aborted: true };
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd: opts.scratch,
      env: { PATH: '/usr/bin:/bin', HOME: opts.scratch, TMPDIR: opts.scratch, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = collector();
    const err = collector();
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

/** The last lines of an engine's stderr that say something (SWIG's leak notices left out). */
export function engineMessage(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('swig/python detected a memory leak'));
  return lines.slice(-6).join('; ') || 'no message';
}

export interface DrcSummary {
  violation_count: number;
  unconnected_count: number;
  by_type: Record<string, number>;
}

/**
 * Reads KiCad 6's DRC report (pcbnew.WriteDRCReport): the "** Found N DRC violations **" and "** Found N unconnected
 * pads **" headers and each item's `[type]:` line, counted per type (unconnected items included as
 * `unconnected_items`).
 */
export function parseDrcReport(text: string): DrcSummary {
  const by_type: Record<string, number> = {};
  for (const m of text.matchAll(/^\[([a-z0-9_]+)\]:/gm)) by_type[m[1]!] = (by_type[m[1]!] ?? 0) + 1;
  const found = (what: RegExp) => {
    const m = what.exec(text);
    if (!m) throw new Error(`the DRC report has no "${what.source}" line`);
    return Number(m[1]);
  };
  return {
    violation_count: found(/^\*\* Found (\d+) DRC violations \*\*/m),
    unconnected_count: found(/^\*\* Found (\d+) unconnected pads \*\*/m),
    by_type,
  };
}

/**
 * The next free revision beside `abs`: `board.kicad_pcb` -> `board.r2.kicad_pcb`, `board.r2.kicad_pcb` ->
 * `board.r3.kicad_pcb`, skipping names that exist.
 */
export async function nextRevision(abs: string): Promise<string> {
  const dir = path.dirname(abs);
  const base = path.basename(abs, '.kicad_pcb');
  const m = /^(.*)\.r(\d+)$/.exec(base);
  const stem = m ? m[1]! : base;
  for (let r = m ? Number(m[2]) + 1 : 2; ; r++) {
    const candidate = path.join(dir, `${stem}.r${r}.kicad_pcb`);
    const taken = await fs.lstat(candidate).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
  }
}
