import type { CompiledIntent } from '../../../../contracts/intent.ts';
import type { PhaseInput } from '../../executor.ts';
import type { Deliverable } from '../../run.types.ts';
import { use } from '../tools.ts';

/** What a flow's requirements phase states; the recording around it is the same for every flow. */
export interface RequirementsBaseline {
  /** The constraint set, as twin.record_constraint_set takes it. */
  constraints: Record<string, unknown>[];
  /** The prd paragraph on what the design carries, between the request and the pointer to the constraint set. */
  statement: string;
  /** The baseline decision: how each requirement is verified, and why. */
  decision: string;
  rationale: string;
  /** The phase summary after "constraint set <ref> with <n> requirements; ". */
  summary: string;
}

/**
 * Records a requirements baseline (mech_v1 and hardware_v1 alike): the constraint set, the prd prose naming it, and the
 * "Requirements baseline" decision depending on it; returns the phase's summary and deliverables.
 */
export async function recordRequirements(
  input: PhaseInput,
  intent: Pick<CompiledIntent, 'goal_object' | 'immediate_request'>,
  b: RequirementsBaseline,
): Promise<{ summary: string; deliverables: Deliverable[] }> {
  const cs = await use(input, 'twin.record_constraint_set', {
    name: `Requirements: ${intent.goal_object}`,
    constraints: b.constraints,
  });
  const prose = [
    `# ${intent.goal_object}`,
    intent.immediate_request,
    b.statement,
    `Requirement values live in ${cs.item_ref}.`,
  ].join('\n\n');
  await use(input, 'twin.record_document', { document_type: 'prd', content: prose });
  const d = await use(input, 'twin.record_decision', {
    title: 'Requirements baseline',
    decision: b.decision,
    rationale: b.rationale,
    depends_on: [cs.item_key],
  });
  return {
    summary: `constraint set ${cs.item_ref} with ${b.constraints.length} requirements; ${b.summary}`,
    deliverables: [
      { type: 'constraint_set', node_id: cs.node_id, ref: cs.item_ref },
      { type: 'design_decision', node_id: d.node_id },
    ],
  };
}
