import type { FlowState } from '../../contracts/design-flows.ts';
import { emptyUsageBucket, type UsageTotals } from '../../contracts/flows.ts';
import { depsOf } from './graph.ts';
import type { RunState } from './run.types.ts';
import { phaseHead } from './run.view.ts';

/**
 * The flow state of a run (pure): phases with their effective dependencies and usage (the run's model usage from the
 * harness's ledger, split by phase); mode, running, skipped.
 */
export function flowState(s: RunState, usage: UsageTotals): FlowState {
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
    usage,
    phases: def.phases.map((p) => {
      const ps = s.phases[p.id];
      return {
        ...phaseHead(s, p),
        depends_on: depsOf(def, p),
        condition: p.condition ?? null,
        skip_reason: ps.skip_reason ?? null,
        usage: usage.by_phase[p.id] ?? emptyUsageBucket(),
      };
    }),
  };
}
