import { z } from 'zod';

/** Gate finding kinds (SPEC "Gate finding"); an unrecognised finding is `other` and keeps its full message. */
export const GateFindingKindSchema = z.enum([
  'missing_deliverable',
  'ungrounded',
  'constraint_violation',
  'analysis',
  'geometry',
  'other',
]);
export type GateFindingKind = z.infer<typeof GateFindingKindSchema>;

/**
 * Gate finding `{kind, severity, message}` (SPEC "Gate finding"); severity is a free string in the spec. `source`
 * `model`: added by the gate_check model (severity at most `warning`, never blocking); absent: a deterministic check.
 */
export const GateFindingSchema = z.object({
  kind: GateFindingKindSchema,
  severity: z.string(),
  message: z.string(),
  source: z.literal('model').optional(),
  /**
   * A finding a person may approve over with an `override_reason` (a hand calculation over its allowable; decision
   * 0060); absent: approving over it is never offered.
   */
  overridable: z.boolean().optional(),
});
export type GateFinding = z.infer<typeof GateFindingSchema>;
