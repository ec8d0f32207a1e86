import { z } from 'zod';
import { PhaseGraphFieldsSchema } from './flows.ts';

/** A phase's human review gate. `enforce_constraints` makes constraint and analysis findings block approval. */
export const GateDefSchema = z.object({
  name: z.string().min(1),
  gate_id: z.string().min(1),
  criteria: z.array(z.string()).default([]),
  enforce_constraints: z.boolean().default(false),
});
export type GateDef = z.infer<typeof GateDefSchema>;

/**
 * One phase of a design flow: what it must produce (required deliverables are work-product types recorded in the
 * project since the phase started), who works on it (disciplines), and its gate. Graph fields are omitted when unset.
 */
export const PhaseDefSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    title: z.string().min(1),
    objective: z.string().min(1),
    required_deliverables: z.array(z.string()),
    expected_artifacts: z.array(z.string()).default([]),
    enforce_deliverables: z.boolean().default(true),
    disciplines: z.array(z.string()).default([]),
    gate: GateDefSchema,
  })
  .extend(PhaseGraphFieldsSchema.shape);
export type PhaseDef = z.infer<typeof PhaseDefSchema>;

/** A design flow: an ordered or graph-shaped list of gated phases. */
export const FlowDefSchema = z.object({
  id: z.string().min(1),
  version: z.string().min(1),
  name: z.string().min(1),
  phases: z.array(PhaseDefSchema).min(1),
});
export type FlowDef = z.infer<typeof FlowDefSchema>;

/** A frozen flow version a run executes: its definition, the facts frozen with it, and the content hash over both. */
export const FrozenFlowSchema = z.object({
  version_id: z.string(),
  flow_id: z.string(),
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  definition: FlowDefSchema,
  facts: z.record(z.string(), z.unknown()),
});
export type FrozenFlow = z.infer<typeof FrozenFlowSchema>;
