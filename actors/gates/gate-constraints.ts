import { call, type Caller } from '../../brokers/actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { GateFinding } from '../../contracts/approvals.ts';
import { ANALYSIS_METRICS, ENVELOPE_METRICS, evaluateRequirements } from '../../contracts/requirements.ts';

/**
 * Constraint checks of a gate that enforces constraints (SPEC: a constraint that cannot be compared is never passed):
 * the requirement evaluation of the lifecycle view (`contracts/requirements.ts`, one set of rules) over the evidence
 * the twin answers (`twin.gateEvidence`: the constraints in force for the run, the latest valid result of the current
 * geometry, the geometry), turned into findings: analysis metrics against the result (`analysis`), envelope metrics
 * against the geometry (`geometry`), anything else that no evidence states reported as not compared (a warning).
 */
export async function constraintFindings(via: Caller, projectId: string | null, runId: string): Promise<GateFinding[]> {
  const { constraints, result, geometry, verification } = await call(via, TwinActions.gateEvidence, {
    project_id: projectId,
    run_id: runId,
  });
  if (!constraints.length) return [];
  const out: GateFinding[] = [];
  for (const r of evaluateRequirements(
    constraints,
    result ?? undefined,
    geometry ?? undefined,
    verification ?? undefined,
  )) {
    if (r.status === 'pass') continue;
    const label = `${r.id} (${r.constraint_set}) ${r.metric} ${r.operator} ${r.limit} ${r.unit}`.trim();
    const kind = ANALYSIS_METRICS.has(r.metric)
      ? 'analysis'
      : ENVELOPE_METRICS.includes(r.metric)
        ? 'geometry'
        : 'other';
    if (r.status === 'fail') {
      out.push({
        kind: kind === 'other' ? 'constraint_violation' : kind,
        severity: r.severity,
        message: `violated: ${label}, but ${r.note}`,
      });
    } else {
      out.push({
        kind,
        severity: kind === 'other' ? 'warning' : 'error',
        message: `not evaluated: ${label} — ${r.note}`,
      });
    }
  }
  return out;
}
