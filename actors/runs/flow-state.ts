import type { FlowState } from '../../contracts/design-flows.ts';
import type { UsageBucket, UsageTotals } from '../../contracts/flows.ts';
import { depsOf } from './graph.ts';
import type { RunState } from './run.types.ts';
import { phaseHead } from './run.view.ts';

/**
 * A usage bucket with no calls (SPEC "Usage totals"): no LLM provider is part of this deployment yet, so every run and
 * phase reports zero calls and `cost_usd: null` (never 0.0: nothing was priced).
 */
export function emptyUsageBucket(): UsageBucket {
  return {
    tokens: { prompt: 0, completion: 0, cached_input: 0 },
    cost_usd: null,
    calls: 0,
    calls_without_usage: 0,
    calls_unpriced: 0,
    calls_subscription: 0,
    billing: 'metered',
  };
}

/** Usage totals with empty breakdowns (no calls were made). */
export function emptyUsageTotals(): UsageTotals {
  return { ...emptyUsageBucket(), by_phase: {}, by_role: {}, by_model: {} };
}

/** The flow state of a run (pure): phases with their effective dependencies and usage; mode, running, skipped. */
export function flowState(s: RunState): FlowState {
  const def = s.flow.definition;
  const linear = def.phases.every((p, i) => {
    const deps = depsOf(def, p);
    return i === 0 ? deps.length === 0 : deps.length === 1 && deps[0] === def.phases[i - 1].id;
  });
  const ids = (status: string) => def.phases.filter((p) => s.phases[p.id]?.status === status).map((p) => p.id);
  return {
    run_id: s.id,
    project_id: s.project_id,
    design_flow: s.flow.flow_id,
    version_id: s.flow.version_id,
    content_hash: s.flow.content_hash,
    status: s.status,
    mode: linear ? 'linear' : 'graph',
    running: ids('running'),
    skipped: ids('skipped'),
    queued_gates: [...s.gate_queue],
    gate: s.gate
      ? { phase: s.gate.phase, gate_id: s.gate.gate_id, ready: s.gate.ready, stalled: s.gate.stalled }
      : null,
    reworks: s.reworks,
    usage: emptyUsageTotals(),
    phases: def.phases.map((p) => {
      const ps = s.phases[p.id];
      return {
        ...phaseHead(s, p),
        depends_on: depsOf(def, p),
        condition: p.condition ?? null,
        skip_reason: ps.skip_reason ?? null,
        usage: emptyUsageBucket(),
      };
    }),
  };
}
