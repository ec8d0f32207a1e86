import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../../kit/tool.ts';
import type { Workspace } from '../../kit/workspace.ts';
import { loadWorkspaceBoard, loadWorkspaceSchematic } from '../board-stage.ts';
import { DrcJsonError, parseDrcJson, PARITY_DIFFERENCES, type KicadDrc } from '../drc-json.ts';
import { withStagedBoard } from '../kicad-cli.ts';

/**
 * A board's check for the layout (issue 31 point 4): KiCad 9's DRC (`kicad-cli pcb drc`) with the schematic parity
 * when the schematic is given. `passed` is 0 errors, 0 unconnected items and 0 parity differences (the parity entries
 * decision 0132 counts as a different design: a footprint missing, extra or twice, a pad on another net); warnings
 * and the library-environment entries (decision 0131) are counted beside, never hidden.
 */
export interface BoardCheck {
  passed: boolean;
  errors: number;
  warnings: number;
  unconnected: number;
  parity_differences: number | null;
  /** Every entry that is not a warning, by KiCad's type (errors, unconnected_items, parity differences). */
  by_type: Record<string, number>;
  warnings_by_type: Record<string, number>;
  kicad_version: string;
}

/** The check's figures from KiCad's JSON report. */
export function summarizeCheck(report: KicadDrc, withParity: boolean): BoardCheck {
  const by_type: Record<string, number> = {};
  const warnings_by_type: Record<string, number> = {};
  const count = (m: Record<string, number>, t: string) => (m[t] = (m[t] ?? 0) + 1);
  let errors = 0;
  for (const v of report.violations)
    if (v.severity === 'error') {
      errors++;
      count(by_type, v.type);
    } else count(warnings_by_type, v.type);
  for (const v of report.unconnected) count(by_type, v.type);
  const differences = report.footprint_errors.filter((v) => PARITY_DIFFERENCES.has(v.type));
  for (const v of differences) count(by_type, v.type);
  const parity = withParity ? differences.length : null;
  return {
    passed: errors === 0 && report.unconnected.length === 0 && !parity,
    errors,
    warnings: report.violations.length - errors,
    unconnected: report.unconnected.length,
    parity_differences: parity,
    by_type,
    warnings_by_type,
    kicad_version: report.kicad_version,
  };
}

/**
 * Checks a workspace board (board_path; schematic_path adds the parity): both read through the workspace's
 * confinement and the native readers first (a path outside the workspace, through a symlink leading out, or a file
 * that is not a KiCad board is INVALID_ARGUMENTS or a ToolError naming it), then KiCad's DRC on a staged copy with
 * the board's project (its rules and net classes) beside it.
 */
export async function checkBoard(
  ws: Workspace,
  a: { board_path: string; schematic_path?: string },
  signal: AbortSignal,
): Promise<BoardCheck> {
  const loaded = await loadWorkspaceBoard(ws, a.board_path);
  const schematic = a.schematic_path ? await loadWorkspaceSchematic(ws, a.schematic_path, signal) : undefined;
  return withStagedBoard(
    ws,
    loaded,
    'eda.check_board',
    signal,
    async (s) => {
      const out = path.join(s.outDir, 'drc.json');
      const args = ['pcb', 'drc', '--format', 'json', '--units', 'mm', '--severity-error', '--severity-warning'];
      await s.cli([...args, ...(schematic ? ['--schematic-parity'] : []), '-o', out, s.board], 'drc');
      try {
        const report = parseDrcJson(await fs.readFile(out, 'utf8'));
        await fs.rm(s.scratch, { recursive: true, force: true });
        return summarizeCheck(report, schematic !== undefined);
      } catch (err) {
        if (err instanceof DrcJsonError) throw new ToolError(`cannot read KiCad's DRC report: ${err.message}`);
        throw err;
      }
    },
    schematic,
  );
}
