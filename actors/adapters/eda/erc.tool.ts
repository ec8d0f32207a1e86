import { z } from 'zod';
import { defineTool } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { ERC_TYPES } from '../../../workers/eda/erc.types.ts';
import { loadDesign } from './load.ts';

export const RunErcInputSchema = z.strictObject({
  schematic_path: z
    .string()
    .min(1)
    .max(1024)
    .describe(
      'workspace path of the root .kicad_sch (KiCad 6 to 9; a KiCad 5 .sch is refused saying how to convert it); its sheet files are read from the same folder',
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
  sheets: z.array(z.string()).describe('sheet instances checked'),
  files: z.array(z.string()).describe('schematic files read'),
  parse_ms: z.number(),
  elapsed_ms: z.number(),
});

/**
 * `eda.run_erc` (class R): KiCad 6's electrical rules check on a schematic hierarchy of the workspace, natively
 * (erc.ts, in the eda pool's worker within its work limits): every sheet file is read through the workspace's
 * confinement rule; a file that is not a KiCad 6 to 9 schematic is invalid arguments naming it and the line.
 */
export function runErcTool(ws: Workspace) {
  return defineTool({
    name: 'run_erc',
    title: 'Run the electrical rules check (ERC) on a KiCad schematic',
    description:
      "Check a KiCad 6 to 9 schematic hierarchy (.kicad_sch) with KiCad's default ERC rules: the pin conflict matrix per net " +
      '(output to output, power output to output, anything to a no_connect pin...), input and power input pins not ' +
      'driven (a power net needs a power output pin or a PWR_FLAG), unconnected pins, no-connect flags that are ' +
      'connected or dangling, duplicate references and units of one part with different values or footprints, ' +
      'unannotated symbols (R?), labels that connect to nothing, global labels used once, sheet pins and hierarchical ' +
      'labels without their counterpart. Each violation has its type, severity, message, sheet path, position (mm) and ' +
      'the items involved. Read only.',
    input: RunErcInputSchema,
    output: RunErcResultSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (a, tc) => {
      const started = performance.now();
      const op = { kind: 'erc', severity: a.severity, max_violations: a.max_violations } as const;
      const { result, files, parse_ms } = await loadDesign(ws, a.schematic_path, op, { signal: tc?.signal });
      return {
        schematic_path: a.schematic_path,
        ...result,
        files,
        parse_ms,
        elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
      };
    },
  });
}
