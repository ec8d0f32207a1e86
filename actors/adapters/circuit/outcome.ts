import type { RawPlot } from './raw-file.ts';

/** What one ngspice process left behind. */
export interface NgspiceRun {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** The verdict on a run: converged or not, the simulator's error lines, and the log (errors first, then warnings and notes). */
export interface RunVerdict {
  converged: boolean;
  errors: string[];
  log: string[];
}

/** stderr lines that mean the analysis failed (exit codes lie: `R1 in` exits 0, a `.control` run exits 1 with results). */
const ERROR_LINE = /\berror\b|aborted|timestep too small|not parsed|no simulations run|there aren't any circuits/i;
/** stdout lines ngspice prints when a solution failed (`Transient solution failed -`, `DC solution failed -`). */
const STDOUT_FAILURE = /solution failed/i;
/** Convergence-aid chatter: kept out of the error list (gmin and source stepping may fail and the run still converge). */
const STEPPING =
  /^(Trying gmin|Supplies reduced)|stepping failed|gmin increment|successful (gmin|source) step|Starting (dynamic|true) gmin|Starting source stepping|Transient op started/i;
const NOISE =
  /^Note: no resource usage information|^\s*or no active circuit available|^Total DRAM available|^DRAM currently available/;
const MAX_LOG_LINES = 100;

/**
 * Judges a run from its exit code, stderr, stdout and data points together (notes/solver.md "Failure facts"): converged =
 * exit 0, no error line in stderr, no "solution failed" in stdout, the requested plot present with > 0 points. The lines that
 * follow `Error on line N` (the offending card and the reason) count as errors too.
 */
export function judgeRun(run: NgspiceRun, plot: RawPlot | undefined, plotName: string): RunVerdict {
  const errLines = run.stderr.split(/\r?\n/).map((l) => l.trimEnd());
  const errors: string[] = [];
  const warnings: string[] = [];
  for (let k = 0; k < errLines.length; k++) {
    const line = errLines[k].trim();
    if (!line || NOISE.test(line)) continue;
    if (/^Error on line/i.test(line)) {
      const reason = errLines
        .slice(k + 1, k + 3)
        .map((l) => l.trim())
        .filter((l) => l && !ERROR_LINE.test(l));
      errors.push(line, ...reason);
      k += reason.length;
    } else if (ERROR_LINE.test(line) && !STEPPING.test(line)) errors.push(line);
    else warnings.push(line);
  }
  const outLines = run.stdout.split(/\r?\n/);
  outLines.forEach((line, k) => {
    if (!STDOUT_FAILURE.test(line)) return;
    errors.push(line.trim());
    // The "Last Node Voltages" table that follows names the nodes that did not settle.
    const table = outLines
      .slice(k + 1, k + 16)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() && !/^-+$/.test(l.trim()));
    warnings.unshift(...table.slice(0, 12));
  });
  if (run.signal) errors.push(`ngspice was killed by ${run.signal}`);
  else if (run.exitCode !== 0) errors.push(`ngspice exited with code ${run.exitCode}`);
  if (!plot) errors.push(`no "${plotName}" results in the raw file`);
  else if (plot.points === 0) errors.push(`the "${plotName}" results have no data points`);
  const log = dedupe([...errors, ...warnings]).slice(0, MAX_LOG_LINES);
  return { converged: errors.length === 0, errors: dedupe(errors), log };
}

/** Drops repeated lines (gmin stepping repeats the same warning dozens of times), keeping the first of each. */
function dedupe(lines: string[]): string[] {
  return [...new Set(lines)];
}

/** A one-line account of a failed run for the tool error message: the simulator's own error lines. */
export function failureMessage(verdict: RunVerdict): string {
  const shown = verdict.errors.slice(0, 6).join('; ');
  return `ngspice simulation failed: ${shown}${verdict.errors.length > 6 ? '; …' : ''}`;
}
