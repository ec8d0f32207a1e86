import type { RunView } from '../../contracts/actions/runs.actions.ts';
import { StartedBySchema, StartSurfaceSchema, type StartedBy, type StartSurface } from '../../contracts/principal.ts';
import { allowedDecisions, overridable } from './run.machine.ts';
import { reworksAt } from './gate-rules.ts';
import type { RunLimits, RunState } from './run.types.ts';

type PhaseDef = RunState['flow']['definition']['phases'][number];

/** Phase statuses a cancelled run stopped (decision 0140): its views show them as `cancelled`. */
const STOPPED_BY_CANCEL: readonly string[] = ['pending', 'running', 'awaiting_gate'];

/** What every view of a phase starts with: its id, title, status, attempt, retries and times. */
export function phaseHead(s: RunState, p: PhaseDef) {
  const ps = s.phases[p.id];
  return {
    id: p.id,
    title: p.title,
    status: s.status === 'cancelled' && STOPPED_BY_CANCEL.includes(ps.status) ? 'cancelled' : ps.status,
    attempt: ps.attempt,
    retries: ps.retries,
    started_at: ps.started_at ?? null,
    finished_at: ps.finished_at ?? null,
  };
}

/**
 * Who started a run and from where, as its stored start request keeps them (decision 0113): taken from the start
 * action's `started_by`/`started_via`, which the gateway and the start tool set from the credential only.
 */
export const startedOf = (p: { started_by?: StartedBy | null; started_via?: StartSurface | null }) => ({
  started_by: p.started_by ?? null,
  started_via: p.started_via ?? null,
});

/** The started_by and started_via a stored start request records (null for runs started before they were). */
function startedIn(request: Record<string, unknown>) {
  const by = StartedBySchema.safeParse(request.started_by);
  const via = StartSurfaceSchema.safeParse(request.started_via);
  return { started_by: by.success ? by.data : null, started_via: via.success ? via.data : null };
}

/** The principal a run's model calls are made for: who started it (decision 0113), null when no one is recorded. */
export function callPrincipalOf(
  request: Record<string, unknown>,
): { subject: string; client_id: string | null } | null {
  const by = startedIn(request).started_by;
  return by && { subject: by.subject, client_id: by.client_id };
}

/** The served view of a run's state (pure). */
export function runView(s: RunState, request: Record<string, unknown>, limits: RunLimits): RunView {
  const def = s.flow.definition;
  const gateDef = s.gate ? def.phases.find((p) => p.id === s.gate!.phase)! : undefined;
  const { allowed, rework_targets } = allowedDecisions(s, limits);
  return {
    id: s.id,
    project_id: s.project_id,
    design_flow: s.flow.flow_id,
    version_id: s.flow.version_id,
    content_hash: s.flow.content_hash,
    status: s.status,
    goal: String(request.goal ?? ''),
    revise: Array.isArray(request.revise) ? request.revise.map(String) : [],
    phases: def.phases.map((p) => {
      const ps = s.phases[p.id];
      return {
        ...phaseHead(s, p),
        summary: ps.summary ?? null,
        deliverables: ps.deliverables,
        failure: ps.failure ?? null,
        skip_reason: ps.skip_reason ?? null,
        gate: { name: p.gate.name, gate_id: p.gate.gate_id },
      };
    }),
    gate:
      s.gate && gateDef
        ? {
            ...s.gate,
            name: gateDef.gate.name,
            allowed_decisions: allowed,
            overridable: !s.gate.ready && overridable(s.gate.findings),
            rework_targets,
            retries_left: Math.max(0, limits.maxRetries - s.phases[s.gate.phase].retries),
            reworks_left: Math.max(0, limits.maxReworks - reworksAt(s, s.gate.phase)),
          }
        : null,
    reworks: s.reworks,
    decisions: s.decisions as unknown as Record<string, unknown>[],
    ended: s.ended ?? null,
    ...startedIn(request),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
