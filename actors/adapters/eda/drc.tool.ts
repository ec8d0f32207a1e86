import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { BoardRulesSchema, defaultRulesWarning, loadWorkspaceBoard, loadWorkspaceSchematic } from './board-stage.ts';
import { DrcJsonError, parseDrcJson, summarizeParity } from './drc-json.ts';
import type { DrcViolation } from './drc-report.ts';
import { withStagedBoard } from './kicad-cli.ts';

export const RunDrcInputSchema = z.object({
  board_path: z.string().min(1).describe('Workspace path of the KiCad 6 to 9 board (.kicad_pcb)'),
  schematic_path: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      "Workspace path of the board's schematic (.kicad_sch, its sub-sheets read too): adds KiCad's schematic parity (footprints missing or extra, nets that differ) as footprint_errors and schematic_parity",
    ),
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
  rule: z
    .string()
    .describe(
      "The check that fired: KiCad's violation type (its JSON report names no rule; the constraint and its values are in description)",
    ),
  items: z.array(Item),
});

export const RunDrcResultSchema = z.object({
  passed: z
    .boolean()
    .describe('No error-severity violation, no unconnected item and, with schematic_path, the board matches it'),
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
  schematic_parity: z
    .object({
      schematic_path: z.string(),
      matches: z
        .boolean()
        .describe('No footprint missing, extra or twice and no pad on another net than the schematic says'),
      missing_footprints: z.array(z.string()).describe('Symbols of the schematic with no footprint on the board'),
      extra_footprints: z.array(z.string()).describe('Footprints of the board with no symbol in the schematic'),
      net_conflicts: z.array(z.string()).describe("Pads whose net differs from the schematic's, as KiCad words it"),
      other: z
        .record(z.string(), z.number().int())
        .describe('Other parity entries counted by type (footprint_symbol_mismatch...)'),
    })
    .optional()
    .describe('Present when schematic_path was given'),
  environment_excluded: z
    .record(z.string(), z.number().int())
    .describe(
      'Library-environment checks set aside, counted by type (lib_footprint_issues: a library the private KiCad settings do not configure; decision 0131)',
    ),
  rules: BoardRulesSchema,
  warnings: z
    .array(z.string())
    .describe("What the caller should know about the check, e.g. that KiCad's default rules stood in for the board's"),
  kicad_version: z.string(),
  elapsed_ms: z.number(),
  engine_ms: z
    .object({ drc: z.number() })
    .describe("kicad-cli's run: loading the board and checking it (elapsed_ms adds reading and staging)"),
});

/** `eda.run_drc`: KiCad's own design rule check (`kicad-cli pcb drc`) of a workspace board, its report structured. */
export function runDrcTool(ws: Workspace) {
  return defineTool({
    name: 'run_drc',
    title: 'Run the design rule check of a KiCad board',
    description:
      "Run KiCad 9's design rule check (kicad-cli pcb drc) on a workspace board (board_path, .kicad_pcb of KiCad 6 to 9) " +
      "with the board's own rules and the severities of its project file (.kicad_pro beside it; without one KiCad 9's " +
      'default rules apply, and rules.source and a warning say so). With schematic_path ' +
      "(the board's .kicad_sch) KiCad also checks the board against the schematic: footprints missing or extra and " +
      'nets that differ, listed as footprint_errors and summarised in schematic_parity. Returns each violation with ' +
      'its type, severity and the items involved with their positions in mm, the unconnected items, the counts, and ' +
      "KiCad's JSON report as report_file. passed is true when there is no error-severity violation, nothing is " +
      'unconnected and, with schematic_path, no footprint or net differs. A file that is not a KiCad board is refused naming the file and line.',
    input: RunDrcInputSchema,
    output: RunDrcResultSchema,
    handler: async (a, tc) => {
      const started = performance.now();
      const loaded = await loadWorkspaceBoard(ws, a.board_path);
      const schematic =
        a.schematic_path === undefined ? undefined : await loadWorkspaceSchematic(ws, a.schematic_path, tc.signal);
      const { report, report_file, ms, rules } = await withStagedBoard(
        ws,
        loaded,
        'eda.run_drc',
        tc.signal,
        async (s) => {
          const out = path.join(s.outDir, 'drc.json');
          const args = ['pcb', 'drc', '--format', 'json', '--units', 'mm', '--severity-error', '--severity-warning'];
          const run = await s.cli([...args, ...(schematic ? ['--schematic-parity'] : []), '-o', out, s.board], 'drc');
          const rel = ws.relative(out);
          try {
            const report = parseDrcJson(await fs.readFile(out, 'utf8'));
            return { report, report_file: rel, ms: run.ms, rules: s.rules };
          } catch (err) {
            if (err instanceof DrcJsonError)
              throw new ToolError(`cannot read KiCad's DRC report: ${err.message}`, { report_file: rel });
            throw err;
          }
        },
        schematic,
      );
      tc.outputFiles.push(report_file);
      const { violations, unconnected, footprint_errors } = report;
      const errors = violations.filter((v) => v.severity === 'error').length;
      const cap = (list: DrcViolation[]) => list.slice(0, a.max_items);
      const pads = loaded.board.footprints.reduce((n, f) => n + f.pads.length, 0);
      const parity = schematic ? summarizeParity(footprint_errors) : undefined;
      return {
        passed: errors === 0 && unconnected.length === 0 && (parity?.matches ?? true),
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
        ...(schematic && parity ? { schematic_parity: { schematic_path: schematic.given, ...parity } } : {}),
        environment_excluded: report.environment,
        rules,
        warnings: rules.project_file === null ? [defaultRulesWarning(a.board_path)] : [],
        kicad_version: report.kicad_version,
        elapsed_ms: Math.round(performance.now() - started),
        engine_ms: { drc: ms },
      };
    },
  });
}
