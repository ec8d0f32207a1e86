import { call, type Caller } from '../../brokers/actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { GateFinding } from '../../contracts/approvals.ts';
import { evaluateEvidence, gateFindingsOf, type RequirementVerdict } from '../../contracts/requirement-verdicts.ts';

/**
 * Every requirement of the run judged by the one requirement evaluator (`evaluateEvidence`,
 * contracts/requirement-verdicts.ts, decision 0080) over the evidence the twin answers (`twin.gateEvidence`: the
 * constraints in force for the run, the latest valid result of the current geometry, the geometry, stale evidence and
 * the waivers of the run's constraint sets), blocking requirements first. The gate's findings and the approval item's
 * `verdicts` both come from here.
 */
export async function runVerdicts(via: Caller, projectId: string | null, runId: string): Promise<RequirementVerdict[]> {
  const evidence = await call(via, TwinActions.gateEvidence, { project_id: projectId, run_id: runId });
  return evidence.constraints.length ? evaluateEvidence(evidence) : [];
}

/**
 * Constraint checks of a gate that enforces constraints (SPEC: a constraint that cannot be compared is never passed):
 * each requirement that neither passes nor is waived turned into its finding by `gateFindingOf`, blocking first.
 */
export async function constraintFindings(via: Caller, projectId: string | null, runId: string): Promise<GateFinding[]> {
  return gateFindingsOf(await runVerdicts(via, projectId, runId));
}
