import { z } from 'zod';
import { ErcSettingsSchema } from './erc-settings.ts';

/** What a `design` task computes from the hierarchy it reads, so the work and its result stay in the worker. */
export const EdaOpSchema = z.discriminatedUnion('kind', [
  /** The schematic and its connectivity themselves (the SPICE export works on them). */
  z.object({ kind: z.literal('design') }),
  z.object({
    kind: z.literal('erc'),
    severity: z.enum(['all', 'error']),
    max_violations: z.number().int().min(1),
    /** The project's ERC settings (its .kicad_pro); absent, KiCad 9's defaults. */
    settings: ErcSettingsSchema.optional(),
  }),
  z.object({
    kind: z.literal('netlist'),
    format: z.enum(['json', 'kicad']),
    source: z.string(),
    date: z.string(),
    tool: z.string(),
  }),
  z.object({ kind: z.literal('bom') }),
  z.object({ kind: z.literal('pinmap'), only: z.array(z.string()).optional() }),
]);
export type EdaOp = z.infer<typeof EdaOpSchema>;

/** Task `design`: a schematic hierarchy's files (workspace-relative path -> text), read and confined by the caller. */
export const DesignTaskSchema = z.object({
  root: z.string().min(1),
  files: z.record(z.string(), z.string()),
  op: EdaOpSchema,
});
export type DesignTask = z.infer<typeof DesignTaskSchema>;

/** Task `board`: one board file's text. */
export const BoardTaskSchema = z.object({ file: z.string().min(1), text: z.string() });
export type BoardTask = z.infer<typeof BoardTaskSchema>;
