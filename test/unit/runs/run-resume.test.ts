import { describe, expect, it } from 'vitest';
import type { GateFinding } from '../../../contracts/approvals.ts';
import { FLOWS } from '../../../actors/runs/flows/index.ts';
import { findingsKey, hasPatch, PATCH_FINDINGS_ORDER, resumeEffects } from '../../../actors/runs/run.machine.ts';
import { machineRun, who } from '../../support/run-machine.ts';

let clock = 0;
const tick = () => new Date(Date.UTC(2026, 10, 22, 0, 0, clock++)).toISOString();

/** A mech_v1 run driven through the pure machine, one second per command. */
function drive(patches: string[]) {
  const m = machineRun(FLOWS.mech_v1, { patches, now: tick });
  const { send } = m;
  const finish = (phase: string, findings: GateFinding[] = []) => {
    const attempt = m.state.phases[phase].attempt;
    send({ type: 'phaseResult', phase, attempt, ok: true, summary: 'ok', deliverables: [] });
    return send({ type: 'gateEvaluated', phase, attempt, findings, ready: findings.length === 0 });
  };
  const decideGate = (decision: 'retry' | 'rework' | 'approve', to_phase = '') => {
    const d = send({
      type: 'decide',
      decision,
      reason: decision === 'approve' ? '' : 'again',
      to_phase,
      identity: who,
      idem: `i${clock}`,
    });
    const fx = d.effects.find((e) => e.type === 'commitDrafts');
    if (fx?.type === 'commitDrafts')
      send({
        type: 'commitResult',
        gate_id: fx.gate_id,
        idem: fx.idem,
        identity: who,
        reason: '',
        ok: true,
        message: '',
      });
  };
  return Object.assign(m, { finish, decideGate });
}

const a: GateFinding = {
  kind: 'missing_deliverable',
  severity: 'error',
  message: 'no intent was recorded in phase intent',
};
const b: GateFinding = { kind: 'analysis', severity: 'error', message: 'stress 600 MPa over 125 MPa' };

describe('patch marker findings-order-insensitive-v1 (STYLE R6)', () => {
  it('is read from the run, never from the code version', () => {
    expect(hasPatch(drive([PATCH_FINDINGS_ORDER]).state, PATCH_FINDINGS_ORDER)).toBe(true);
    expect(hasPatch(drive([]).state, PATCH_FINDINGS_ORDER)).toBe(false);
    expect(findingsKey([a, b])).toBe(findingsKey([b, a]));
    expect(findingsKey([a, b], false)).not.toBe(findingsKey([b, a], false));
  });

  it('with the marker, the same findings in another order count as a repeat: the gate is stalled', () => {
    const r = drive([PATCH_FINDINGS_ORDER]);
    r.finish('intent', [a, b]);
    r.decideGate('retry');
    r.finish('intent', [b, a]);
    expect(r.state.gate).toMatchObject({ stalled: true });
    expect(r.state.not_ready.intent.streak).toBe(2);
  });

  it('without it (a run created before the patch), the order matters as it did then: not stalled', () => {
    const r = drive([]);
    r.finish('intent', [a, b]);
    r.decideGate('retry');
    r.finish('intent', [b, a]);
    expect(r.state.gate).toMatchObject({ stalled: false });
    expect(r.state.not_ready.intent.streak).toBe(1);
    r.decideGate('retry');
    r.finish('intent', [b, a]);
    expect(r.state.gate).toMatchObject({ stalled: true });
  });
});

describe('resumeEffects: what a new owner restarts', () => {
  it('re-runs a phase that was running when its owner died', () => {
    const r = drive([]);
    expect(resumeEffects(r.state)).toEqual([{ type: 'runPhase', phase: 'intent', attempt: 1, notes: [] }]);
  });

  it('re-announces an open gate (the broadcast may have died with the old owner) and evaluates a queued one', () => {
    const r = drive([]);
    r.send({ type: 'phaseResult', phase: 'intent', attempt: 1, ok: true, summary: 'ok', deliverables: [] });
    expect(resumeEffects(r.state)).toEqual([{ type: 'evaluateGate', phase: 'intent', attempt: 1 }]);
    r.send({ type: 'gateEvaluated', phase: 'intent', attempt: 1, findings: [], ready: true });
    expect(resumeEffects(r.state)).toEqual([
      { type: 'gateOpened', phase: 'intent', gate_id: 'r1:intent:1', ready: true },
    ]);
  });

  it('closes the drafts again before re-running a retried phase that has not finished since the decision', () => {
    const r = drive([]);
    r.finish('intent', [a]);
    r.decideGate('retry');
    const fx = resumeEffects(r.state);
    expect(fx.map((e) => e.type)).toEqual(['closeDrafts', 'runPhase']);
    expect(fx[0]).toMatchObject({ status: 'abandoned', reason: expect.stringContaining('retry of intent') });
    r.send({ type: 'phaseResult', phase: 'intent', attempt: 2, ok: true, summary: 'ok', deliverables: [] });
    expect(resumeEffects(r.state).map((e) => e.type)).toEqual(['evaluateGate']);
  });

  it('closes the drafts again after a rework too, and asks nothing of an ended run', () => {
    const r = drive([]);
    for (const p of ['intent', 'needs']) {
      r.finish(p);
      r.decideGate('approve');
    }
    r.finish('requirements');
    r.decideGate('rework', 'needs');
    expect(resumeEffects(r.state).map((e) => e.type)).toEqual(['closeDrafts', 'runPhase']);
    r.send({ type: 'cancel', reason: 'stop' });
    expect(resumeEffects(r.state)).toEqual([]);
  });
});
