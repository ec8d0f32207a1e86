import type { FrozenFlow } from '../../contracts/flow-defs.ts';
import type { GateFinding } from '../../contracts/approvals.ts';
import type { Decision, DecisionIdentity, Deliverable, FailureKind, RunState, RunStatus } from './run.types.ts';

/** Every fact of a run's life: the run is its ordered list of these (event-sourced), state is their fold. */
export type RunEvent =
  | { type: 'RunCreated'; run_id: string; project_id: string | null; flow: FrozenFlow; patches: string[]; at: string }
  | { type: 'PhaseStarted'; phase: string; attempt: number; at: string }
  | { type: 'PhaseSkipped'; phase: string; reason: string; at: string }
  | {
      type: 'PhaseSucceeded';
      phase: string;
      attempt: number;
      summary: string;
      deliverables: Deliverable[];
      /** The phase's own findings, when it has any (decision 0060). */
      findings?: GateFinding[];
      at: string;
    }
  | { type: 'PhaseFailed'; phase: string; attempt: number; kind: FailureKind; message: string; at: string }
  | {
      type: 'GateOpened';
      phase: string;
      attempt: number;
      gate_id: string;
      findings: GateFinding[];
      ready: boolean;
      stalled: boolean;
      streak: number;
      key: string;
      at: string;
    }
  | ({
      type: 'GateDecided';
      phase: string;
      gate_id: string;
      decision: Decision;
      reason: string;
      to_phase: string;
      idem: string;
      /** An approve over the gate's overridable findings: the person's reason (decision 0060). */
      override_reason?: string;
      at: string;
    } & DecisionIdentity)
  | { type: 'CommitConflicted'; phase: string; gate_id: string; message: string; at: string }
  | { type: 'PhasesReset'; phases: string[]; note: string; at: string }
  | { type: 'FlowPatched'; flow: FrozenFlow; rerun: string[]; note: string; at: string }
  | {
      type: 'RunEnded';
      status: Extract<RunStatus, 'completed' | 'failed' | 'rejected' | 'cancelled'>;
      kind?: FailureKind;
      message: string;
      at: string;
    };

/** The state before the first event. */
export function emptyRun(): RunState {
  return {
    id: '',
    project_id: null,
    flow: {
      version_id: '',
      flow_id: '',
      content_hash: '0'.repeat(64),
      definition: { id: '', version: '', name: '', phases: [] },
      facts: {},
    },
    status: 'created',
    phases: {},
    gate_queue: [],
    reworks: 0,
    not_ready: {},
    decisions: [],
    patches: [],
    seq: 0,
    created_at: '',
    updated_at: '',
  };
}

/** Applies one event (pure). Unknown transitions are impossible by construction: `decide` only emits valid ones. */
export function apply(s: RunState, e: RunEvent): RunState {
  const next: RunState = { ...s, seq: s.seq + 1, updated_at: e.at, phases: { ...s.phases } };
  const phase = (id: string) => (next.phases[id] = { ...next.phases[id] });
  switch (e.type) {
    case 'RunCreated':
      return {
        ...next,
        id: e.run_id,
        project_id: e.project_id,
        flow: e.flow,
        patches: e.patches,
        status: 'running',
        created_at: e.at,
        phases: Object.fromEntries(
          e.flow.definition.phases.map((p) => [
            p.id,
            { status: 'pending', attempt: 0, retries: 0, deliverables: [], notes: [] },
          ]),
        ),
      };
    case 'PhaseStarted': {
      const p = phase(e.phase);
      Object.assign(p, {
        status: 'running',
        attempt: e.attempt,
        started_at: e.at,
        finished_at: undefined,
        failure: undefined,
        findings: undefined,
        summary: undefined,
        deliverables: [],
      });
      return next;
    }
    case 'PhaseSkipped':
      Object.assign(phase(e.phase), { status: 'skipped', skip_reason: e.reason, finished_at: e.at });
      return next;
    case 'PhaseSucceeded':
    case 'PhaseFailed': {
      const p = phase(e.phase);
      Object.assign(p, { status: 'awaiting_gate', finished_at: e.at });
      if (e.type === 'PhaseSucceeded')
        Object.assign(p, { summary: e.summary, deliverables: e.deliverables, findings: e.findings });
      else p.failure = { kind: e.kind, message: e.message };
      next.gate_queue = [...s.gate_queue.filter((x) => x !== e.phase), e.phase];
      return next;
    }
    case 'GateOpened':
      next.gate = {
        phase: e.phase,
        attempt: e.attempt,
        gate_id: e.gate_id,
        findings: e.findings,
        ready: e.ready,
        stalled: e.stalled,
        opened_at: e.at,
      };
      next.gate_queue = s.gate_queue.filter((x) => x !== e.phase);
      next.not_ready = {
        ...s.not_ready,
        [e.phase]: e.ready ? { key: '', streak: 0 } : { key: e.key, streak: e.streak },
      };
      next.status = 'awaiting_approval';
      return next;
    case 'GateDecided': {
      const { type: _t, at, ...rest } = e;
      next.decisions = [...s.decisions, { ...rest, decided_at: at }];
      next.gate = undefined;
      next.status = 'running';
      const p = phase(e.phase);
      if (e.decision === 'approve') p.status = 'approved';
      if (e.decision === 'retry')
        Object.assign(p, {
          status: 'pending',
          retries: p.retries + 1,
          notes: [`RETRY (attempt ${p.attempt + 1}): ${e.reason}`],
        });
      if (e.decision === 'rework') next.reworks = s.reworks + 1;
      return next;
    }
    case 'CommitConflicted':
      if (next.gate) next.gate = { ...next.gate, conflict: e.message };
      return next;
    case 'PhasesReset':
      for (const id of e.phases)
        Object.assign(phase(id), {
          status: 'pending',
          notes: [e.note],
          deliverables: [],
          failure: undefined,
          summary: undefined,
        });
      next.gate_queue = s.gate_queue.filter((x) => !e.phases.includes(x));
      return next;
    case 'FlowPatched': {
      // An approved flow patch: the run continues on the new frozen version; rerun phases start over.
      const ids = e.flow.definition.phases.map((p) => p.id);
      next.flow = e.flow;
      next.phases = Object.fromEntries(
        ids.map((id) => [
          id,
          s.phases[id] ?? { status: 'pending', attempt: 0, retries: 0, deliverables: [], notes: [] },
        ]),
      );
      for (const id of e.rerun)
        Object.assign(phase(id), {
          status: 'pending',
          notes: [e.note],
          deliverables: [],
          failure: undefined,
          summary: undefined,
        });
      next.gate_queue = s.gate_queue.filter((x) => ids.includes(x) && !e.rerun.includes(x));
      if (s.gate && (!ids.includes(s.gate.phase) || e.rerun.includes(s.gate.phase)))
        Object.assign(next, { gate: undefined, status: 'running' });
      return next;
    }
    case 'RunEnded':
      next.status = e.status;
      next.gate = undefined;
      next.ended = { status: e.status, kind: e.kind, message: e.message };
      return next;
  }
}

/** Folds an event log into state. */
export function foldRun(events: RunEvent[]): RunState {
  return events.reduce(apply, emptyRun());
}
