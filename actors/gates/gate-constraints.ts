import { call, type Caller } from '../../brokers/actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { GateFinding } from '../../contracts/approvals.ts';
import { evaluateRun, gateFindingOf } from '../../contracts/requirement-verdicts.ts';

/**
 * Constraint checks of a gate that enforces constraints (SPEC: a constraint that cannot be compared is never passed):
 * the one requirement evaluator (`evaluateRun`, contracts/requirement-verdicts.ts, decision 0080) over the evidence
 * the twin answers (`twin.gateEvidence`: the constraints in force for the run, the latest valid result of the current
 * geometry, the geometry), each requirement that does not pass turned into its finding by `gateFindingOf`, blocking
 * requirements first.
 */
export async function constraintFindings(via: Caller, projectId: string | null, runId: string): Promise<GateFinding[]> {
  const { constraints, result, geometry, verification, stale } = await call(via, TwinActions.gateEvidence, {
    project_id: projectId,
    run_id: runId,
  });
  if (!constraints.length) return [];
  return evaluateRun({
    constraints,
    result: result ?? undefined,
    geometry: geometry ?? undefined,
    verification: verification ?? undefined,
    stale,
  })
    .map(gateFindingOf)
    .filter((f): f is GateFinding => f !== null);
}
