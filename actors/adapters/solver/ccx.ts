import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { engineCommand, findProgram } from '../kit/sandbox.ts';
import { ToolError, ToolUnavailableError } from '../kit/tool.ts';

export const CCX_MISSING = 'ccx (CalculiX) is not installed: not found on PATH (Debian package calculix-ccx)';

/** Whether `program` is on PATH (looked up in the folders of PATH; no shell). */
export async function onPath(program: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await findProgram(program, env.PATH ?? '')) !== undefined;
}

/** What a finished ccx run left behind. */
export interface CcxRun {
  seconds: number;
  exitCode: number | null;
  stdout: string;
  /** `*WARNING` lines of the output (they go to the result's log). */
  warnings: string[];
  frd: string;
  dat: string;
}

const POLL_MS = 500;

/**
 * Runs `ccx -i <job>` in `dir` with `OMP_NUM_THREADS=1` (a second thread costs 75 % more memory for 37 % less time),
 * in its own process group so an abort (timeout or cancel) kills the whole group, sandboxed with `dir` its only writable
 * place (kit/sandbox.ts). Reports progress from the `.sta`
 * file. Never trusts the exit code (notes/solver.md "Error detection"): `*ERROR` in the output or a missing `.frd` is
 * a ToolError carrying the solver's words.
 */
export async function runCcx(opts: {
  dir: string;
  job: string;
  signal: AbortSignal;
  progress?: (fraction: number, message: string) => void;
}): Promise<CcxRun> {
  const started = performance.now();
  const cmd = await engineCommand('ccx', ['-i', opts.job], {
    scratch: opts.dir,
    missing: CCX_MISSING,
    env: { OMP_NUM_THREADS: '1' },
  });
  const child = spawn(cmd.command, cmd.args, {
    cwd: opts.dir,
    env: cmd.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-2_000_000)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out = (out + d).slice(-2_000_000)));
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  opts.signal.addEventListener('abort', kill, { once: true });
  let lastSta = '';
  const poll = setInterval(() => {
    void fs.readFile(path.join(opts.dir, `${opts.job}.sta`), 'utf8').then(
      (sta) => {
        if (sta === lastSta) return;
        lastSta = sta;
        const rows = sta.split('\n').filter((l) => /^\s*\d+\s+\d+\s+\d+/.test(l));
        const row = rows.at(-1)?.trim().split(/\s+/);
        if (row)
          opts.progress?.(
            0.2 + 0.5 * Math.min(1, Number(row[5]) || 0),
            `solving: step ${row[0]}, increment ${row[1]}, step time ${row[5]}`,
          );
      },
      () => undefined,
    );
  }, POLL_MS);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new ToolUnavailableError(CCX_MISSING) : err),
    );
    child.once('close', (code) => resolve(code));
  }).finally(() => {
    clearInterval(poll);
    opts.signal.removeEventListener('abort', kill);
  });
  if (opts.signal.aborted) throw opts.signal.reason;
  const seconds = (performance.now() - started) / 1000;
  const lines = out.split('\n');
  const errors = lines.filter((l) => l.includes('*ERROR'));
  const warnings = [...new Set(lines.filter((l) => l.includes('*WARNING')).map((l) => l.trim()))].slice(0, 50);
  const frd = path.join(opts.dir, `${opts.job}.frd`);
  const dat = path.join(opts.dir, `${opts.job}.dat`);
  await fs.rm(path.join(opts.dir, `${opts.job}.12d`), { force: true });
  if (errors.length)
    throw new ToolError(
      `CalculiX failed: ${errors
        .slice(0, 5)
        .map((l) => l.trim())
        .join(' ')}`,
      { exit_code: exitCode, solver_errors: errors.slice(0, 20), tail: lines.slice(-20).join('\n') },
    );
  const stat = await fs.stat(frd).catch(() => undefined);
  if (!stat || stat.size === 0) {
    throw new ToolError(
      `CalculiX wrote no result file (exit code ${exitCode}): ${
        lines
          .filter((l) => l.trim())
          .slice(-5)
          .join(' ')
          .trim() || 'no output'
      }`,
      { exit_code: exitCode, tail: lines.slice(-20).join('\n') },
    );
  }
  return { seconds, exitCode, stdout: out, warnings, frd, dat };
}

/** Total reaction force on the fixed set from the `.dat` (`*NODE PRINT, TOTALS=ONLY` RF), or null. */
export function reactionTotals(dat: string): [number, number, number] | null {
  const m = /total force \(fx,fy,fz\) for set \S+ and time\s+\S+\s*\n\s*\n\s*(\S+)\s+(\S+)\s+(\S+)/.exec(dat);
  if (!m) return null;
  const v = [m[1], m[2], m[3]].map(Number);
  return v.every(Number.isFinite) ? (v as [number, number, number]) : null;
}
