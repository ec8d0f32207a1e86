import type { GateEvaluate } from '../../contracts/actions/runs.actions.ts';
import type { RunState } from './run.types.ts';
import { callPrincipalOf } from './run.view.ts';

/** What `gates.evaluate` is asked for a phase's gate (pure): the phase's deliverables, criteria and the run's starter. */
export function gateEvaluateParams(
  runId: string,
  s: RunState,
  phase: string,
  attempt: number,
  request: Record<string, unknown>,
): GateEvaluate {
  const def = s.flow.definition.phases.find((p) => p.id === phase)!;
  const summary = s.phases[phase].summary;
  return {
    principal: callPrincipalOf(request),
    run_id: runId,
    project_id: s.project_id,
    phase,
    attempt,
    started_at: s.phases[phase].started_at ?? null,
    required_deliverables: def.required_deliverables,
    enforce_deliverables: def.enforce_deliverables,
    enforce_constraints: def.gate.enforce_constraints,
    objective: def.objective.slice(0, 20_000),
    criteria: def.gate.criteria.slice(0, 100).map((c) => c.slice(0, 2_000)),
    ...(summary ? { summary: summary.slice(0, 20_000) } : {}),
  };
}
