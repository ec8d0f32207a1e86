import { describe, expect, it } from 'vitest';
import { ConditionError } from '../../../actors/runs/condition.ts';
import { FLOWS, freezeFlow } from '../../../actors/runs/flows/index.ts';
import { affectedPhases, applyOperations, movedPast, PatchError } from '../../../actors/runs/patches.ts';
import { foldRun } from '../../../actors/runs/run.events.ts';
import type { PhaseDef } from '../../../contracts/flow-defs.ts';
import { machineRun, who } from '../../support/run-machine.ts';

const MECH = FLOWS.mech_v1;

const phase = (id: string, extra: Partial<PhaseDef> = {}): PhaseDef => ({
  id,
  title: id,
  objective: `do ${id}`,
  required_deliverables: ['design_decision'],
  expected_artifacts: [],
  enforce_deliverables: true,
  disciplines: [],
  gate: { name: `${id} review`, gate_id: id.toUpperCase(), criteria: [], enforce_constraints: false },
  ...extra,
});

/** Drives the pure machine: finish a phase (ready gate), approve its gate. */
function drive() {
  const m = machineRun(MECH);
  const { send } = m;
  return Object.assign(m, {
    pass(id: string) {
      const attempt = m.state.phases[id].attempt;
      send({ type: 'phaseResult', phase: id, attempt, ok: true, summary: 'ok', deliverables: [] });
      send({ type: 'gateEvaluated', phase: id, attempt, findings: [], ready: true });
      const d = send({ type: 'decide', decision: 'approve', reason: '', to_phase: '', identity: who, idem: `a-${id}` });
      const fx = d.effects.find((e) => e.type === 'commitDrafts');
      send({
        type: 'commitResult',
        gate_id: fx?.type === 'commitDrafts' ? fx.gate_id : '',
        idem: `a-${id}`,
        identity: who,
        reason: '',
        ok: true,
        message: '',
      });
    },
    patch(ops: Parameters<typeof applyOperations>[1], base = m.state.flow.content_hash) {
      const def = applyOperations(m.state.flow.definition, ops);
      return send({
        type: 'patchFlow',
        flow: freezeFlow(def, {}),
        base_hash: base,
        affected: affectedPhases(m.state.flow.definition, def),
        note: 'PATCH 1: test',
      });
    },
  });
}

describe('flow patch operations', () => {
  it('adds a phase after another; the phase that followed now depends on it', () => {
    const def = applyOperations(MECH, [{ op: 'add_phase', phase: phase('review'), after: 'feasibility' }]);
    expect(def.phases.map((p) => p.id)).toEqual([
      'intent',
      'needs',
      'requirements',
      'feasibility',
      'review',
      'design',
      'simulation',
    ]);
    expect(affectedPhases(MECH, def)).toEqual(['review', 'design']);
  });

  it('removes and modifies phases; a graph field set to null is removed', () => {
    const withCond = applyOperations(MECH, [
      { op: 'modify_phase', phase_id: 'feasibility', changes: { condition: 'route == full', title: 'Quick check' } },
    ]);
    expect(withCond.phases[3]).toMatchObject({ title: 'Quick check', condition: 'route == full' });
    const cleared = applyOperations(withCond, [
      { op: 'modify_phase', phase_id: 'feasibility', changes: { condition: null } },
    ]);
    expect('condition' in cleared.phases[3]).toBe(false);
    const titleOnly = applyOperations(MECH, [
      { op: 'modify_phase', phase_id: 'feasibility', changes: { title: 'Quick check' } },
    ]);
    expect(freezeFlow(cleared, {}).content_hash).toBe(freezeFlow(titleOnly, {}).content_hash);
    const removed = applyOperations(MECH, [{ op: 'remove_phase', phase_id: 'feasibility' }]);
    expect(affectedPhases(MECH, removed)).toEqual(['design', 'feasibility']);
  });

  it('refuses a condition that does not parse, naming the phase and the position', () => {
    const err = (() => {
      try {
        applyOperations(MECH, [
          { op: 'add_phase', phase: phase('extra', { condition: 'route == full and loads_known in [yes' }) },
        ]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConditionError);
    expect((err as ConditionError).position).toBe(38);
    expect((err as Error).message).toMatch(
      /phase extra: condition does not parse at position 38: expected "\]" at the end$/,
    );
  });

  it('refuses unknown phases, duplicates, dangling dependencies and cycles', () => {
    expect(() => applyOperations(MECH, [{ op: 'remove_phase', phase_id: 'nope' }])).toThrow(PatchError);
    expect(() => applyOperations(MECH, [{ op: 'add_phase', phase: phase('design') }])).toThrow(/already exists/);
    expect(() => applyOperations(MECH, [{ op: 'add_phase', phase: phase('x', { depends_on: ['ghost'] }) }])).toThrow(
      /unknown phase ghost/,
    );
    expect(() =>
      applyOperations(MECH, [{ op: 'modify_phase', phase_id: 'intent', changes: { depends_on: ['simulation'] } }]),
    ).toThrow(/dependency cycle/);
  });
});

describe('an approved patch in the run machine', () => {
  it('continues on the new version: an added phase runs when its dependencies are approved', () => {
    const r = drive();
    r.pass('intent');
    const d = r.patch([{ op: 'add_phase', phase: phase('review'), after: 'feasibility' }]);
    expect(d.refusal).toBeUndefined();
    expect(d.events[0]).toMatchObject({ type: 'FlowPatched', rerun: [] });
    for (const id of ['needs', 'requirements', 'feasibility']) r.pass(id);
    expect(r.state.phases.review.status).toBe('running');
    expect(r.state.phases.design.status).toBe('pending');
    expect(foldRun(r.log)).toEqual(r.state);
  });

  it('re-runs a patched phase that was in progress and closes its open gate', () => {
    const r = drive();
    const attempt = r.state.phases.intent.attempt;
    r.send({ type: 'phaseResult', phase: 'intent', attempt, ok: true, summary: 'ok', deliverables: [] });
    r.send({ type: 'gateEvaluated', phase: 'intent', attempt, findings: [], ready: true });
    expect(r.state.gate?.phase).toBe('intent');
    const d = r.patch([
      { op: 'modify_phase', phase_id: 'intent', changes: { objective: 'state the goal in one line' } },
    ]);
    expect(d.events[0]).toMatchObject({ type: 'FlowPatched', rerun: ['intent'] });
    expect(d.effects.map((e) => e.type)).toEqual(['closeDrafts', 'runPhase']);
    expect(r.state.gate).toBeUndefined();
    expect(r.state.phases.intent).toMatchObject({ status: 'running', attempt: attempt + 1, notes: ['PATCH 1: test'] });
  });

  it('refuses as stale when the run moved past a patched phase or the flow moved on', () => {
    const r = drive();
    r.pass('intent');
    r.pass('needs');
    const past = r.patch([{ op: 'modify_phase', phase_id: 'needs', changes: { title: 'Needs v2' } }]);
    expect(past.refusal).toEqual({ code: 'CONFLICT', message: 'stale: the run moved past needs' });
    expect(movedPast(r.state, ['needs', 'design'])).toEqual(['needs']);
    const moved = r.patch([{ op: 'modify_phase', phase_id: 'design', changes: { title: 'D' } }], 'f'.repeat(64));
    expect(moved.refusal?.message).toMatch(/^stale: the patch was written against ffffffffffff/);
    expect(past.events).toEqual([]);
  });
});
