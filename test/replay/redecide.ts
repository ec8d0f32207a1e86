import { canonicalJson } from '../../actors/runs/flows/index.ts';
import { apply, emptyRun, type RunEvent } from '../../actors/runs/run.events.ts';
import { decide, type RunCommand } from '../../actors/runs/run.machine.ts';
import type { RunLimits, RunState } from '../../actors/runs/run.types.ts';

/** A recorded run history (test/replay/*.json, written by record.ts). */
export interface Recording {
  name: string;
  description: string;
  recorded: { at: string; commit: string; limits: RunLimits };
  final_status: string;
  events: { seq: number; payload: RunEvent }[];
  final_state: RunState;
}

/** Key order and undefined members aside (the log is jsonb), the same JSON. */
const same = (a: unknown, b: unknown) =>
  canonicalJson(JSON.parse(JSON.stringify(a))) === canonicalJson(JSON.parse(JSON.stringify(b)));

/**
 * The commands behind the events at `log[i]`, reconstructed from the log (what the shell sent the machine then). An
 * approval is two commands: the decision (no events, a commit effect) and the commit's result.
 */
function commandsAt(s: RunState, e: RunEvent, i: number): RunCommand[] {
  switch (e.type) {
    case 'RunCreated':
      return [{ type: 'create', run_id: e.run_id, project_id: e.project_id, flow: e.flow, patches: e.patches }];
    case 'PhaseStarted': // only at a command boundary for a transient failure, which is retried as is and leaves no event of its own
      return [
        {
          type: 'phaseResult',
          phase: e.phase,
          attempt: e.attempt - 1,
          ok: false,
          kind: 'transient',
          message: '(replayed transient failure)',
        },
      ];
    case 'PhaseSucceeded':
      return [
        {
          type: 'phaseResult',
          phase: e.phase,
          attempt: e.attempt,
          ok: true,
          summary: e.summary,
          deliverables: e.deliverables,
        },
      ];
    case 'PhaseFailed':
      return [{ type: 'phaseResult', phase: e.phase, attempt: e.attempt, ok: false, kind: e.kind, message: e.message }];
    case 'GateOpened': {
      // The machine puts a finding for a failed phase first; the gates actor never reported it.
      const findings = s.phases[e.phase]?.failure ? e.findings.slice(1) : e.findings;
      return [{ type: 'gateEvaluated', phase: e.phase, attempt: e.attempt, findings, ready: e.ready }];
    }
    case 'GateDecided': {
      const identity = {
        approver: e.approver,
        approver_verified: e.approver_verified,
        surface: e.surface,
        on_behalf_of: e.on_behalf_of,
        agent: e.agent,
      };
      if (e.decision !== 'approve')
        return [
          { type: 'decide', decision: e.decision, reason: e.reason, to_phase: e.to_phase, identity, idem: e.idem },
        ];
      return [
        { type: 'decide', decision: 'approve', reason: e.reason, to_phase: '', identity, idem: e.idem },
        { type: 'commitResult', gate_id: e.gate_id, idem: e.idem, identity, reason: e.reason, ok: true, message: '' },
      ];
    }
    case 'CommitConflicted': {
      const identity = {
        approver: 'replay',
        approver_verified: false,
        surface: 'replay',
        on_behalf_of: null,
        agent: null,
      };
      const idem = `replay:conflict:${i}`;
      return [
        { type: 'decide', decision: 'approve', reason: '', to_phase: '', identity, idem },
        { type: 'commitResult', gate_id: e.gate_id, idem, identity, reason: '', ok: false, message: e.message },
      ];
    }
    case 'FlowPatched':
      return [{ type: 'patchFlow', flow: e.flow, base_hash: s.flow.content_hash, affected: e.rerun, note: e.note }];
    case 'RunEnded':
      if (e.status === 'cancelled') return [{ type: 'cancel', reason: e.message }];
      break;
  }
  throw new Error(`event ${i + 1} (${e.type}) is not where a command starts`);
}

/**
 * Replays a recorded history through today's machine (STYLE R6): from each command boundary, reconstructs the command,
 * asks `decide` with the recorded time and limits, and requires exactly the recorded events. Returns the folded
 * state; throws at the first divergence, naming the event.
 */
export function redecide(rec: Pick<Recording, 'events' | 'recorded'>): RunState {
  const log = rec.events.map((e) => e.payload);
  let s = emptyRun();
  for (let i = 0; i < log.length;) {
    const cmds = commandsAt(s, log[i], i);
    let emitted: RunEvent[] = [];
    for (const c of cmds) {
      const d = decide(s, c, { now: log[i].at, limits: rec.recorded.limits });
      if (d.refusal && !(c.type === 'commitResult' && d.refusal.code === 'PATCH_CONFLICT'))
        throw new Error(`event ${i + 1} (${log[i].type}): today's machine refuses ${c.type}: ${d.refusal.message}`);
      for (const e of d.events) s = apply(s, e);
      emitted = [...emitted, ...d.events];
    }
    const want = log.slice(i, i + emitted.length);
    if (!emitted.length || !same(emitted, want)) {
      throw new Error(
        `event ${i + 1} (${log[i].type}): today's machine emits ${canonicalJson(emitted).slice(0, 600)}\nrecorded: ${canonicalJson(want).slice(0, 600)}`,
      );
    }
    i += emitted.length;
  }
  return s;
}
