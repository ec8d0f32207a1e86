import { describe, expect, it } from 'vitest';
import { allowedDecisions } from '../../../actors/runs/run.machine.ts';
import { foldRun } from '../../../actors/runs/run.events.ts';
import { DEFAULT_LIMITS } from '../../../actors/runs/run.types.ts';
import { FLOWS } from '../../../actors/runs/flows/index.ts';
import type { FlowDef } from '../../../contracts/flow-defs.ts';
import type { GateFinding } from '../../../contracts/approvals.ts';
import { machineRun, who } from '../../support/run-machine.ts';

/** Drives the machine like the shell does, keeping the event log; finishes phases and approves gates. */
function run(def: FlowDef, facts: Record<string, unknown> = {}) {
  const m = machineRun(def, { facts });
  const { send } = m;
  return Object.assign(m, {
    finish(
      phase: string,
      ready = true,
      findings: GateFinding[] = ready
        ? []
        : [{ kind: 'missing_deliverable', severity: 'error', message: `no ${phase}` }],
    ) {
      const attempt = m.state.phases[phase].attempt;
      const r = send({ type: 'phaseResult', phase, attempt, ok: true, summary: 'ok', deliverables: [] });
      const evalFx = r.effects.find((e) => e.type === 'evaluateGate');
      if (evalFx) send({ type: 'gateEvaluated', phase, attempt, findings, ready });
      return r;
    },
    approve(idem = `i-${Math.random()}`) {
      const d = send({ type: 'decide', decision: 'approve', reason: '', to_phase: '', identity: who, idem });
      if (d.refusal) return d;
      const fx = d.effects.find((e) => e.type === 'commitDrafts')!;
      return send({
        type: 'commitResult',
        gate_id: fx.type === 'commitDrafts' ? fx.gate_id : '',
        idem,
        identity: who,
        reason: '',
        ok: true,
        message: '',
      });
    },
  });
}

const linear = (n: number): FlowDef => ({
  id: 'lin',
  version: '1',
  name: 'linear',
  phases: Array.from({ length: n }, (_, i) => ({
    id: `p${i + 1}`,
    title: `P${i + 1}`,
    objective: 'o',
    required_deliverables: [],
    expected_artifacts: [],
    enforce_deliverables: true,
    disciplines: [],
    gate: { name: `G${i + 1}`, gate_id: `G${i + 1}`, criteria: [], enforce_constraints: false },
  })),
});

describe('run machine: a linear flow', () => {
  it('runs phase by phase through approved gates to completion', () => {
    const r = run(FLOWS.mech_v1);
    expect(r.first.effects).toEqual([{ type: 'runPhase', phase: 'intent', attempt: 1, notes: [] }]);
    for (const p of ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation']) {
      expect(r.state.phases[p].status).toBe('running');
      r.finish(p);
      expect(r.state.gate).toMatchObject({ phase: p, ready: true, gate_id: `r1:${p}:1` });
      expect(allowedDecisions(r.state, DEFAULT_LIMITS)).toEqual({
        allowed: ['approve', 'reject', 'retry', ...(p === 'intent' ? [] : ['rework'])],
        rework_targets: expect.any(Array),
      });
      expect(r.approve().refusal).toBeUndefined();
    }
    expect(r.state.status).toBe('completed');
    expect(foldRun(r.log)).toEqual(r.state);
  });

  it('refuses approve while the gate is not ready, and a decision with the same idempotency key applies once', () => {
    const r = run(linear(2));
    r.finish('p1', false);
    expect(r.approve().refusal).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('not ready') });
    const retry = {
      type: 'decide' as const,
      decision: 'retry' as const,
      reason: 'again',
      to_phase: '',
      identity: who,
      idem: 'same',
    };
    expect(r.send(retry).events.map((e) => e.type)).toEqual(['GateDecided', 'PhaseStarted']);
    expect(r.send(retry).events).toEqual([]);
    expect(r.state.phases.p1).toMatchObject({ attempt: 2, retries: 1, notes: ['RETRY (attempt 2): again'] });
  });

  it('caps retries at three per gate and needs a reason for reject, retry and rework', () => {
    const r = run(linear(1));
    for (let i = 0; i < 3; i++) {
      r.finish('p1', false, [{ kind: 'other', severity: 'error', message: `attempt ${i}` }]);
      expect(
        r.send({ type: 'decide', decision: 'retry', reason: 'x', to_phase: '', identity: who, idem: `r${i}` }).refusal,
      ).toBeUndefined();
    }
    r.finish('p1', false, [{ kind: 'other', severity: 'error', message: 'last' }]);
    expect(
      r.send({ type: 'decide', decision: 'retry', reason: 'x', to_phase: '', identity: who, idem: 'r4' }).refusal
        ?.message,
    ).toContain('used up');
    expect(
      r.send({ type: 'decide', decision: 'reject', reason: ' ', to_phase: '', identity: who, idem: 'j' }).refusal?.code,
    ).toBe('VALIDATION_FAILED');
    expect(
      r.send({ type: 'decide', decision: 'reject', reason: 'no', to_phase: '', identity: who, idem: 'j2' }).effects,
    ).toContainEqual({ type: 'closeDrafts', status: 'rejected', reason: 'no' });
    expect(r.state.status).toBe('rejected');
  });

  it('marks a gate stalled on the second identical not-ready findings and ends the run as a design failure on the third', () => {
    const r = run(linear(1));
    const same = [{ kind: 'analysis' as const, severity: 'error', message: 'stress 600 MPa over 125 MPa' }];
    r.finish('p1', false, same);
    expect(r.state.gate?.stalled).toBe(false);
    r.send({ type: 'decide', decision: 'retry', reason: 'try', to_phase: '', identity: who, idem: 'a' });
    r.finish('p1', false, same);
    expect(r.state.gate?.stalled).toBe(true);
    r.send({ type: 'decide', decision: 'retry', reason: 'try', to_phase: '', identity: who, idem: 'b' });
    r.finish('p1', false, same);
    expect(r.state).toMatchObject({ status: 'failed', ended: { kind: 'design' } });
  });

  it('reworks to an earlier phase: the target and everything after it re-run; invalid targets and the cap are refused', () => {
    const r = run(linear(3));
    r.finish('p1');
    r.approve();
    r.finish('p2');
    r.approve();
    r.finish('p3', false);
    expect(
      r.send({ type: 'decide', decision: 'rework', reason: 'redo', to_phase: 'p3', identity: who, idem: 'x' }).refusal
        ?.code,
    ).toBe('VALIDATION_FAILED');
    const d = r.send({ type: 'decide', decision: 'rework', reason: 'redo', to_phase: 'p1', identity: who, idem: 'y' });
    expect(d.effects).toContainEqual({
      type: 'runPhase',
      phase: 'p1',
      attempt: 2,
      notes: ['REWORK (cycle 1) from p3: redo'],
    });
    expect(['p2', 'p3'].map((p) => r.state.phases[p].status)).toEqual(['pending', 'pending']);
  });

  it('retries a transient failure as is, ends the run on an environment failure, and opens a not-ready gate on a tool failure', () => {
    const r = run(linear(2));
    const t = r.send({
      type: 'phaseResult',
      phase: 'p1',
      attempt: 1,
      ok: false,
      kind: 'transient',
      message: 'timeout',
    });
    expect(t.effects).toEqual([
      { type: 'runPhase', phase: 'p1', attempt: 2, notes: ['transient failure, retried as is: timeout'] },
    ]);
    r.send({ type: 'phaseResult', phase: 'p1', attempt: 2, ok: false, kind: 'tool', message: 'ccx failed' });
    r.send({ type: 'gateEvaluated', phase: 'p1', attempt: 2, findings: [], ready: true });
    expect(r.state.gate).toMatchObject({
      ready: false,
      findings: [{ kind: 'other', message: 'phase failed (tool): ccx failed' }],
    });
    const e = run(linear(1));
    e.send({
      type: 'phaseResult',
      phase: 'p1',
      attempt: 1,
      ok: false,
      kind: 'environment',
      message: 'SERVICE_LLM_API_KEY is not set',
    });
    expect(e.state).toMatchObject({ status: 'failed', ended: { kind: 'environment' } });
  });
});

describe('run machine: graph flows', () => {
  const graph: FlowDef = {
    ...linear(4),
    phases: linear(4).phases.map((p) =>
      p.id === 'p2'
        ? { ...p, depends_on: ['p1'] }
        : p.id === 'p3'
          ? { ...p, depends_on: ['p1'], condition: 'route == hardware' }
          : p.id === 'p4'
            ? { ...p, depends_on: ['p2', 'p3'] }
            : p,
    ),
  };

  it('runs phases whose dependencies are done as one wave, skips a false condition, and joins with ALL', () => {
    const r = run(graph, { route: 'software' });
    r.finish('p1');
    const d = r.approve();
    expect(d.events.map((e) => e.type)).toEqual(['GateDecided', 'PhaseStarted', 'PhaseSkipped']);
    expect(r.state.phases.p3).toMatchObject({ status: 'skipped', skip_reason: 'condition false: route == hardware' });
    r.finish('p2');
    r.approve();
    expect(r.state.phases.p4.status).toBe('running');
  });

  it('queues gates of a parallel wave and opens them one at a time in flow order', () => {
    const r = run(graph, { route: 'hardware' });
    r.finish('p1');
    r.approve();
    expect(['p2', 'p3'].map((p) => r.state.phases[p].status)).toEqual(['running', 'running']);
    const third = r.send({ type: 'phaseResult', phase: 'p3', attempt: 1, ok: true, summary: '', deliverables: [] });
    expect(third.effects).toEqual([{ type: 'evaluateGate', phase: 'p3', attempt: 1 }]);
    r.send({ type: 'gateEvaluated', phase: 'p3', attempt: 1, findings: [], ready: true });
    const second = r.send({ type: 'phaseResult', phase: 'p2', attempt: 1, ok: true, summary: '', deliverables: [] });
    expect(second.effects).toEqual([]);
    r.approve();
    expect(r.state.gate).toBeUndefined();
    r.send({ type: 'gateEvaluated', phase: 'p2', attempt: 1, findings: [], ready: true });
    expect(r.state.gate?.phase).toBe('p2');
  });
});
