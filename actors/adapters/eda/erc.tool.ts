import { z } from 'zod';
import { defineTool } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { ERC_TYPES, KICAD_RULE } from '../../../workers/eda/erc.types.ts';
import { readProjectErc } from './erc-project.ts';
import { loadDesign } from './load.ts';

export const RunErcInputSchema = z.strictObject({
  schematic_path: z
    .string()
    .min(1)
    .max(1024)
    .describe(
      'workspace path of the root .kicad_sch (KiCad 6 to 9; a KiCad 5 .sch is refused saying how to convert it); its sheet files are read from the same folder',
    ),
  use_project: z
    .boolean()
    .default(true)
    .describe(
      "apply the project's ERC settings (rule severities, pin conflict matrix, exclusions) from the .kicad_pro of the same name beside the schematic, as KiCad does (default); false: KiCad 9's default rules",
    ),
  severity: z.enum(['all', 'error']).default('all').describe('all: errors and warnings (default); error: errors only'),
  max_violations: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(1000)
    .describe('most violations listed (counts always cover all); default 1000'),
});

const PointSchema = z.object({ x: z.number(), y: z.number() });

export const RunErcResultSchema = z.object({
  schematic_path: z.string(),
  passed: z.boolean().describe('no errors (warnings allowed)'),
  error_count: z.number().int(),
  warning_count: z.number().int(),
  by_type: z.record(z.string(), z.number().int()).describe('violations per check, over the severities asked for'),
  violations: z.array(
    z.object({
      type: z.enum(ERC_TYPES),
      rule: z
        .enum(Object.values(KICAD_RULE) as [string, ...string[]])
        .describe("KiCad's name of the check (kicad-cli's `type`, the .kicad_pro's rule_severities key)"),
      severity: z.enum(['error', 'warning']),
      message: z.string(),
      sheet: z.string().describe("human sheet path of the marker, e.g. '/' or '/modul/'"),
      position_mm: PointSchema,
      items: z.array(
        z.object({
          kind: z.enum(['pin', 'label', 'symbol', 'sheet_pin', 'no_connect']),
          reference: z.string().optional(),
          pin: z.string().optional(),
          text: z.string().optional(),
          position_mm: PointSchema,
        }),
      ),
    }),
  ),
  truncated: z.boolean().describe('more violations than max_violations'),
  excluded_count: z.number().int().describe("violations left out by the project's erc_exclusions"),
  project_file: z
    .string()
    .nullable()
    .describe("the .kicad_pro whose ERC settings were applied; null: KiCad 9's default rules"),
  project_notes: z
    .array(z.string())
    .describe('entries of the project file KiCad would not apply either, each with what was used instead'),
  sheets: z.array(z.string()).describe('sheet instances checked'),
  files: z.array(z.string()).describe('schematic files read'),
  parse_ms: z.number(),
  elapsed_ms: z.number(),
});

/**
 * `eda.run_erc` (class R): KiCad 9's electrical rules check, under the project's rules (erc-project.ts), on a schematic hierarchy of the workspace, natively
 * (erc.ts, in the eda pool's worker within its work limits): every sheet file is read through the workspace's
 * confinement rule; a file that is not a KiCad 6 to 9 schematic is invalid arguments naming it and the line.
 */
export function runErcTool(ws: Workspace) {
  return defineTool({
    name: 'run_erc',
    title: 'Run the electrical rules check (ERC) on a KiCad schematic',
    description:
      "Check a KiCad 6 to 9 schematic hierarchy (.kicad_sch) with its project's ERC rules as KiCad 9 applies them (the .kicad_pro " +
      "beside it: rule severities, pin conflict matrix, exclusions; KiCad 9's defaults without one): the pin conflict matrix per net " +
      '(output to output, power output to output, anything to a no_connect pin...), input and power input pins not ' +
      'driven (a power net needs a power output pin or a PWR_FLAG), unconnected pins, no-connect flags that are ' +
      'connected or dangling, duplicate references and units of one part with different values or footprints, ' +
      'unannotated symbols (R?), labels on a net of fewer than two pins, global labels used once, sheet pins and ' +
      'hierarchical labels without their counterpart. Each violation has its type, KiCad rule name, severity, message, ' +
      'sheet path, position (mm) and the items involved. Read only.',
    input: RunErcInputSchema,
    output: RunErcResultSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (a, tc) => {
      const started = performance.now();
      const project = a.use_project ? await readProjectErc(ws, a.schematic_path) : { file: null, notes: [] };
      const op = {
        kind: 'erc',
        severity: a.severity,
        max_violations: a.max_violations,
        ...(project.settings ? { settings: project.settings } : {}),
      } as const;
      const { result, files, parse_ms } = await loadDesign(ws, a.schematic_path, op, { signal: tc?.signal });
      return {
        schematic_path: a.schematic_path,
        ...result,
        project_file: project.file,
        project_notes: project.notes,
        files,
        parse_ms,
        elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
      };
    },
  });
}
