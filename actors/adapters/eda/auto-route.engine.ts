import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnEngine, type EngineRun } from '../kit/engines/spawn.ts';
import { engineCommand } from '../kit/sandbox.ts';
import { parseDrcReport as readDrcReport } from './drc-report.ts';

/** Our fixed pcbnew scripts (the board is data passed by path, never code). */
export const PCBNEW_SCRIPTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pcbnew');

export type { EngineRun } from '../kit/engines/spawn.ts';

/**
 * Runs one engine program sandboxed (kit/sandbox.ts: the scratch folder its only writable place, HOME and TMPDIR
 * there, our pcbnew scripts readable), in its own process group; when `signal` aborts, the group is killed and the run
 * resolves with `aborted: true`. `missing` is the TOOL_UNAVAILABLE message when the program is not installed.
 */
export async function runEngine(
  program: string,
  args: readonly string[],
  opts: { scratch: string; signal: AbortSignal; missing: string },
): Promise<EngineRun> {
  // Our scripts stay visible in the sandbox wherever the service lives, /tmp included (decision 0095).
  const cmd = await engineCommand(program, args, {
    scratch: opts.scratch,
    missing: opts.missing,
    readOnly: [PCBNEW_SCRIPTS],
  });
  return spawnEngine(cmd, { cwd: opts.scratch, signal: opts.signal });
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

/** The routed board's DRC (drc-report.ts reads KiCad 6's report) as counts: violations, unconnected, per type. */
export function parseDrcReport(text: string): DrcSummary {
  const report = readDrcReport(text);
  const by_type: Record<string, number> = {};
  for (const v of [...report.violations, ...report.unconnected, ...report.footprint_errors])
    by_type[v.type] = (by_type[v.type] ?? 0) + 1;
  return { violation_count: report.violations.length, unconnected_count: report.unconnected.length, by_type };
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
