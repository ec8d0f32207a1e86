import { describe, expect, it } from 'vitest';
import { FLOWS, freezeFlow } from '../../../actors/runs/flows/index.ts';
import { lifecycleView, type LifecycleInput } from '../../../actors/runs/lifecycle.ts';
import { evaluateRequirements, type Evidence } from '../../../contracts/requirements.ts';
import { apply, emptyRun } from '../../../actors/runs/run.events.ts';
import { decide, type RunCommand } from '../../../actors/runs/run.machine.ts';
import { DEFAULT_LIMITS, type RunState } from '../../../actors/runs/run.types.ts';
import type { FlowDef } from '../../../contracts/flow-defs.ts';

const env = { now: '2026-11-22T00:00:00.000Z', limits: DEFAULT_LIMITS };
const who = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};

/** A mech_v1 run driven by the pure machine through `approved` gates; `ready: false` leaves the next gate not ready. */
function runThrough(
  approved: string[],
  opts: { flow?: FlowDef; facts?: Record<string, unknown>; notReady?: boolean } = {},
): RunState {
  let s: RunState = emptyRun();
  const send = (c: RunCommand) => {
    const d = decide(s, c, env);
    for (const e of d.events) s = apply(s, e);
    return d;
  };
  send({
    type: 'create',
    run_id: 'r1',
    project_id: 'p',
    flow: freezeFlow(opts.flow ?? FLOWS.mech_v1, opts.facts ?? {}),
    patches: [],
  });
  for (const id of approved) {
    const attempt = s.phases[id].attempt;
    send({ type: 'phaseResult', phase: id, attempt, ok: true, summary: 'ok', deliverables: [] });
    send({ type: 'gateEvaluated', phase: id, attempt, findings: [], ready: true });
    const d = send({ type: 'decide', decision: 'approve', reason: '', to_phase: '', identity: who, idem: id });
    const fx = d.effects.find((e) => e.type === 'commitDrafts');
    send({
      type: 'commitResult',
      gate_id: fx?.type === 'commitDrafts' ? fx.gate_id : '',
      idem: id,
      identity: who,
      reason: '',
      ok: true,
      message: '',
    });
  }
  if (opts.notReady) {
    const next = Object.keys(s.phases).find((id) => s.phases[id].status === 'running')!;
    send({
      type: 'phaseResult',
      phase: next,
      attempt: s.phases[next].attempt,
      ok: true,
      summary: 'ok',
      deliverables: [],
    });
    send({
      type: 'gateEvaluated',
      phase: next,
      attempt: s.phases[next].attempt,
      findings: [{ kind: 'missing_deliverable', severity: 'error', message: 'no cad_model' }],
      ready: false,
    });
  }
  return s;
}

const ALL = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];
const result = (props: Record<string, unknown>): Evidence => ({ node_id: 'sim-1', ref: null, properties: props });
const geometry: Evidence = {
  node_id: 'cad-1',
  ref: 'CAD-BRACKET@1',
  properties: { bounding_box: { min: [0, 0, 0], max: [200, 20, 10] }, mass_kg: 0.31 },
};
const stress = (limit: number, severity = 'error') => ({
  set: 'CS-LIMITS@1',
  c: { id: 'C1', metric: 'max_von_mises_mpa', operator: '<=', limit, unit: 'MPa', severity },
});
const input = (state: RunState, over: Partial<LifecycleInput> = {}): LifecycleInput => ({
  state,
  requirements: [],
  stale: [],
  gaps: [],
  limits: [],
  evidenceRead: true,
  ...over,
});

describe('requirements against current evidence', () => {
  it('passes and fails by the stated value; no data never passes', () => {
    const [pass, fail, none] = [
      ...evaluateRequirements([stress(125)], result({ max_von_mises_mpa: 60 }), geometry),
      ...evaluateRequirements([stress(50)], result({ max_von_mises_mpa: 60 }), geometry),
      ...evaluateRequirements([stress(125)], undefined, geometry),
    ];
    expect(pass).toMatchObject({
      status: 'pass',
      value: 60,
      mandatory: true,
      evidence: { kind: 'simulation_result', node_id: 'sim-1' },
    });
    expect(fail).toMatchObject({ status: 'fail', value: 60 });
    expect(none).toMatchObject({ status: 'no_data', value: null, evidence: null });
    expect(none.note).toMatch(/not compared, so not passed/);
  });

  it('reads envelope metrics from the geometry, the safety factor from yield and stress, other metrics where stated', () => {
    const rs = evaluateRequirements(
      [
        { set: 'CS@1', c: { metric: 'length_mm', operator: '<=', limit: 250 } },
        { set: 'CS@1', c: { metric: 'safety_factor', operator: '>=', limit: 2 } },
        { set: 'CS@1', c: { metric: 'mass_kg', operator: '<=', limit: 0.25 } },
        { set: 'CS@1', c: { metric: 'cost_usd', operator: '<=', limit: 10 } },
      ],
      result({ max_von_mises_mpa: 62.5, yield_mpa: 250 }),
      geometry,
    );
    expect(rs.map((r) => [r.id, r.status, r.value])).toEqual([
      ['C1', 'pass', 200],
      ['C2', 'pass', 4],
      ['C3', 'fail', 0.31],
      ['C4', 'no_data', null],
    ]);
  });
});

describe('the completion verdict', () => {
  it('is COMPLETED_VERIFIED when every mandatory requirement passes with current evidence and nothing is stale', () => {
    const v = lifecycleView(
      input(runThrough(ALL), {
        requirements: evaluateRequirements([stress(125)], result({ max_von_mises_mpa: 60 }), geometry),
      }),
    );
    expect(v.verdict).toBe('COMPLETED_VERIFIED');
    expect(
      v.phases.every(
        (p) => p.execution_status === 'COMPLETED' && p.validity === 'VALID' && p.objective_status === 'COMPLETED',
      ),
    ).toBe(true);
    expect(v.nextStep).toMatch(/^Nothing to do/);
  });

  it('is PARTIALLY_COMPLETED when a requirement fails, lacks data, or an output went stale', () => {
    const done = runThrough(ALL);
    const failing = lifecycleView(
      input(done, { requirements: evaluateRequirements([stress(50)], result({ max_von_mises_mpa: 60 }), geometry) }),
    );
    expect(failing.verdict).toBe('PARTIALLY_COMPLETED');
    expect(failing.phases.find((p) => p.id === 'simulation')?.objective_status).toBe('FAILED');
    expect(
      lifecycleView(input(done, { requirements: evaluateRequirements([stress(125)], undefined, geometry) })).verdict,
    ).toBe('PARTIALLY_COMPLETED');
    const stale = lifecycleView(
      input(done, {
        requirements: evaluateRequirements([stress(125)], result({ max_von_mises_mpa: 60 }), geometry),
        stale: [
          {
            node_id: 'cad-1',
            ref: 'CAD-BRACKET@1',
            phase: 'design',
            reason: 'CAD-BRACKET@1 was superseded by CAD-BRACKET@2',
          },
        ],
      }),
    );
    expect(stale.verdict).toBe('PARTIALLY_COMPLETED');
    expect(stale.phases.find((p) => p.id === 'design')).toMatchObject({ validity: 'STALE', objective_status: 'STALE' });
    expect(stale.phases.find((p) => p.id === 'simulation')).toMatchObject({
      validity: 'POTENTIALLY_INVALID',
      objective_status: 'STALE',
    });
    expect(stale.phases.find((p) => p.id === 'feasibility')?.validity).toBe('VALID');
  });

  it('is COMPLETED_WITH_WARNINGS with no requirements recorded or a skipped phase, and partial when the twin could not be read', () => {
    const done = runThrough(ALL);
    expect(lifecycleView(input(done)).verdict).toBe('COMPLETED_WITH_WARNINGS');
    const flow: FlowDef = {
      ...FLOWS.mech_v1,
      phases: FLOWS.mech_v1.phases.map((p) => (p.id === 'feasibility' ? { ...p, condition: 'route == full' } : p)),
    };
    const skipped = runThrough(['intent', 'needs', 'requirements', 'design', 'simulation'], {
      flow,
      facts: { route: 'quick' },
    });
    const v = lifecycleView(
      input(skipped, {
        requirements: evaluateRequirements([stress(125)], result({ max_von_mises_mpa: 60 }), geometry),
      }),
    );
    expect(v.verdict).toBe('COMPLETED_WITH_WARNINGS');
    expect(v.phases.find((p) => p.id === 'feasibility')).toMatchObject({
      execution_status: 'SKIPPED',
      eligibility: 'SKIPPED',
      validity: 'SKIPPED',
      objective_status: 'SKIPPED',
    });
    expect(lifecycleView(input(done, { evidenceRead: false, limits: ['the twin could not be read'] })).verdict).toBe(
      'PARTIALLY_COMPLETED',
    );
  });

  it('is IN_PROGRESS at a ready gate, BLOCKED at a not-ready gate or a blocking gap, FAILED, CANCELLED', () => {
    const atGate = runThrough(['intent', 'needs']);
    const v = lifecycleView(input(atGate));
    expect(v.verdict).toBe('IN_PROGRESS');
    expect(v.phases.find((p) => p.id === 'requirements')).toMatchObject({
      execution_status: 'RUNNING',
      eligibility: 'ELIGIBLE',
    });
    expect(v.phases.find((p) => p.id === 'design')).toMatchObject({
      execution_status: 'PENDING',
      eligibility: 'PENDING',
      validity: 'PENDING',
    });
    const gap = lifecycleView(
      input(atGate, {
        gaps: [{ phase: 'design', deliverable: 'cad_model', capability: 'UNAVAILABLE', blocking: true }],
      }),
    );
    expect(gap.verdict).toBe('BLOCKED');
    expect(gap.phases.find((p) => p.id === 'design')).toMatchObject({
      eligibility: 'BLOCKED',
      objective_status: 'BLOCKED',
    });
    const notReady = lifecycleView(
      input(runThrough(['intent', 'needs', 'requirements', 'feasibility'], { notReady: true })),
    );
    expect(notReady.verdict).toBe('BLOCKED');
    expect(notReady.nextStep).toMatch(/not ready \(no cad_model\); retry the phase or reject/);
    const cancelled = runThrough(['intent']);
    const c = decide(cancelled, { type: 'cancel', reason: 'not needed' }, env).events.reduce(apply, cancelled);
    expect(lifecycleView(input(c)).verdict).toBe('CANCELLED');
    expect(lifecycleView(input(c)).phases.find((p) => p.id === 'needs')?.execution_status).toBe('CANCELLED');
    const failed = decide(
      atGate,
      {
        type: 'phaseResult',
        phase: 'requirements',
        attempt: 1,
        ok: false,
        kind: 'environment',
        message: 'no model provider',
      },
      env,
    ).events.reduce(apply, atGate);
    const f = lifecycleView(input(failed));
    expect(f.verdict).toBe('FAILED');
    expect(f.phases.find((p) => p.id === 'requirements')?.objective_status).toBe('FAILED');
  });
});
