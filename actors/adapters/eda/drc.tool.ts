import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { DrcReportError, parseDrcReport, type DrcViolation } from './drc-report.ts';
import { loadWorkspaceBoard, runOnStagedBoard } from './pcbnew.ts';

export const RunDrcInputSchema = z.object({
  board_path: z.string().min(1).describe('Workspace path of the KiCad 6 board (.kicad_pcb)'),
  max_items: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(1000)
    .describe('Most violations and unconnected items listed each (the counts and the report file are always whole)'),
});

const Item = z.object({
  description: z.string(),
  position_mm: z.object({ x: z.number(), y: z.number() }),
});
const Violation = z.object({
  type: z.string().describe("KiCad's violation key, e.g. clearance, silk_over_copper, unconnected_items"),
  severity: z.string().describe('error | warning (as the board and its project set them)'),
  description: z.string(),
  rule: z.string(),
  items: z.array(Item),
});

export const RunDrcResultSchema = z.object({
  passed: z.boolean().describe('No error-severity violation, no unconnected item, no footprint error'),
  violation_count: z.number().int(),
  error_count: z.number().int(),
  warning_count: z.number().int(),
  unconnected_count: z.number().int(),
  footprint_error_count: z.number().int(),
  violations: z.array(Violation),
  unconnected: z.array(Violation),
  footprint_errors: z.array(Violation),
  truncated: z.boolean(),
  report_file: z.string().describe("KiCad's own report, workspace-relative"),
  board: z.object({
    path: z.string(),
    footprints: z.number().int(),
    pads: z.number().int(),
    nets: z.number().int(),
    copper_layers: z.array(z.string()),
  }),
  kicad_version: z.string(),
  elapsed_ms: z.number(),
  engine_ms: z
    .object({ load: z.number(), drc: z.number() })
    .describe(
      "Inside KiCad's engine: importing pcbnew and loading the board, then the check (elapsed_ms adds the sandbox and process start)",
    ),
});

/** `eda.run_drc`: KiCad's own design rule check (pcbnew.WriteDRCReport) of a workspace board, its report structured. */
export function runDrcTool(ws: Workspace) {
  return defineTool({
    name: 'run_drc',
    title: 'Run the design rule check of a KiCad board',
    description:
      "Run KiCad 6's design rule check on a workspace board (board_path, .kicad_pcb) with the board's own rules and the " +
      'severities of its project file (.kicad_pro beside it), track-to-zone checks included. Returns each violation with ' +
      'its type, severity, rule and the items involved with their positions in mm, the unconnected items, the counts, ' +
      "and KiCad's text report as report_file. passed is true when there is no error-severity violation and nothing is " +
      'unconnected. A file that is not a KiCad 5/6 board is refused naming the file and line.',
    input: RunDrcInputSchema,
    output: RunDrcResultSchema,
    handler: async (a, tc) => {
      const started = performance.now();
      const loaded = await loadWorkspaceBoard(ws, a.board_path);
      const { run, scratch, outDir } = await runOnStagedBoard(ws, loaded, 'eda.run_drc', 'drc', tc.signal);
      const reportPath = path.join(outDir, 'drc.rpt');
      const report_file = ws.relative(reportPath);
      tc.outputFiles.push(report_file);
      let parsed;
      try {
        parsed = parseDrcReport(await fs.readFile(reportPath, 'utf8'));
      } catch (err) {
        if (err instanceof DrcReportError)
          throw new ToolError(`cannot read KiCad's DRC report: ${err.message}`, { report_file });
        throw err;
      }
      const { violations, unconnected, footprint_errors } = parsed;
      const errors = violations.filter((v) => v.severity === 'error').length;
      const cap = (list: DrcViolation[]) => list.slice(0, a.max_items);
      const pads = loaded.board.footprints.reduce((n, f) => n + f.pads.length, 0);
      return {
        passed: errors === 0 && unconnected.length === 0 && footprint_errors.length === 0,
        violation_count: violations.length,
        error_count: errors,
        warning_count: violations.filter((v) => v.severity === 'warning').length,
        unconnected_count: unconnected.length,
        footprint_error_count: footprint_errors.length,
        violations: cap(violations),
        unconnected: cap(unconnected),
        footprint_errors: cap(footprint_errors),
        truncated: [violations, unconnected, footprint_errors].some((l) => l.length > a.max_items),
        report_file,
        board: {
          path: a.board_path,
          footprints: loaded.board.footprints.length,
          pads,
          nets: loaded.board.nets.length,
          copper_layers: loaded.board.copper_layers,
        },
        kicad_version: String(run.kicad_version ?? ''),
        elapsed_ms: Math.round(performance.now() - started),
        engine_ms: { load: Number(run.load_ms) || 0, drc: Number(run.drc_ms) || 0 },
      };
    },
  });
}
