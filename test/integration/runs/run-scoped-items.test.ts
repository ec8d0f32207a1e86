import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { toActorErrorShape } from '../../../brokers/errors.ts';
import { RunsActions } from '../../../contracts/actions/runs.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import { STEP_BASE64, useFlowNode, type RecordedDesign } from '../../support/flow-node.ts';
import type { Json } from '../../support/http-raw.ts';
import { callTool } from '../../support/tools.ts';

/**
 * Issue 28 point 1 over HTTP (decision 0100): a run's items are its own. Two mech_v1 runs of one project write items
 * of the same names ("Bracket", "Bracket limits"); each keeps its own keys, so both stay COMPLETED_VERIFIED, and
 * neither run's verdicts cite the other's items. Revising another run's item is an explicit `revise` in the start
 * request: it shows on the run before its first phase, and the earlier run goes stale naming the run that revised it.
 */
const node = useFlowNode();
const { http } = node;

const MECH = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];
const start = (project: string, design: RecordedDesign = {}, extra: Record<string, unknown> = {}) =>
  http('POST', '/v1/runs', {
    design_flow: 'mech_v1',
    project_id: project,
    goal: 'a steel cantilever bracket carrying a tip load',
    context: { design },
    ...extra,
  });
const gateOf = (id: string) =>
  expect.poll(async () => (await http('GET', `/v1/runs/${id}`)).json.gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });
async function approveThrough(id: string, phases: string[]) {
  for (const phase of phases) {
    await gateOf(id).toBe(phase);
    const r = await http('POST', `/v1/runs/${id}/approval`, { decision: 'approve' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
}
const lifecycle = async (id: string) => (await http('GET', `/v1/runs/${id}/lifecycle`)).json;
const revisions = async (id: string) => (await http('GET', `/v1/twin/runs/${id}/changes`)).json.revisions as Json[];
const cadOf = async (id: string) => (await revisions(id)).find((r) => r.item_type === 'cad_model')!;

/** Every requirement's constraint set and evidence node belong to run `id` (none cites another run's item). */
async function citesOnlyItsOwn(id: string, requirements: Json[]) {
  const keys = new Set((await revisions(id)).map((r) => r.key));
  for (const r of requirements) {
    expect(keys, `${r.id} set ${r.constraint_set}`).toContain(String(r.constraint_set).split('@')[0]);
    if (!r.evidence) continue;
    const n = (await http('GET', `/v1/twin/nodes/${r.evidence.node_id}`)).json;
    expect(n.run_id, `${r.id} evidence ${r.evidence.ref ?? r.evidence.node_id}`).toBe(id);
  }
}

describe("a run's items are its own (issue 28 point 1, decision 0100)", () => {
  it('two runs of one project, each approved to the end, both stay COMPLETED_VERIFIED on their own items', async () => {
    const P = 'p-two-runs';
    const r1 = (await start(P, { stressMpa: 60 })).json;
    await approveThrough(r1.id, MECH);
    expect((await lifecycle(r1.id)).verdict).toBe('COMPLETED_VERIFIED');

    const started = await start(P, { stressMpa: 90 });
    expect(started.status).toBe(201);
    const r2 = started.json;
    expect(r2.revise).toEqual([]);
    await approveThrough(r2.id, ['intent', 'needs']);
    await gateOf(r2.id).toBe('requirements');
    // Before it has geometry run 2's requirements have no evidence: run 1's bracket is not its evidence.
    const early = await lifecycle(r2.id);
    expect(early.requirements.length).toBeGreaterThan(0);
    for (const r of early.requirements) expect(r, JSON.stringify(r)).toMatchObject({ evidence: null, value: null });
    await citesOnlyItsOwn(r2.id, early.requirements);

    await approveThrough(r2.id, MECH.slice(2));
    const [l1, l2] = [await lifecycle(r1.id), await lifecycle(r2.id)];
    expect(l1, JSON.stringify(l1.stale)).toMatchObject({ verdict: 'COMPLETED_VERIFIED', stale: [] });
    expect(l2, JSON.stringify(l2.stale)).toMatchObject({ verdict: 'COMPLETED_VERIFIED', stale: [] });
    expect(l1.phases.map((p: Json) => p.validity)).toEqual(MECH.map(() => 'VALID'));
    // Each run judged on its own result: 60 MPa for run 1, 90 MPa for run 2.
    expect(l1.requirements.map((r: Json) => r.value)).toEqual([60]);
    expect(l2.requirements.map((r: Json) => r.value)).toEqual([90]);
    await citesOnlyItsOwn(r1.id, l1.requirements);
    await citesOnlyItsOwn(r2.id, l2.requirements);

    // Same names, distinct keys: every item of run 2 is new at revision 1, none of run 1's moved.
    const [c1, c2] = [await revisions(r1.id), await revisions(r2.id)];
    const k1 = new Set(c1.map((r) => r.key));
    expect(c2.filter((r) => k1.has(r.key))).toEqual([]);
    expect((await cadOf(r2.id)).name).toBe((await cadOf(r1.id)).name);
    expect(c2.filter((r) => r.status === 'approved').map((r) => r.revision)).toEqual(
      c2.filter((r) => r.status === 'approved').map(() => 1),
    );
    expect(c1.every((r) => !r.superseded)).toBe(true);

    // A person naming "Bracket" without a key now names two items: a tool error naming both keys, nothing written.
    const named = await callTool(node.handle.broker, 'twin.commit_geometry', {
      project_id: P,
      name: (await cadOf(r1.id)).name,
      step_base64: STEP_BASE64,
    });
    expect(named).toMatchObject({ status: 'error', error: { type: 'TOOL_EXECUTION_ERROR' } });
    for (const cad of [await cadOf(r1.id), await cadOf(r2.id)]) expect(JSON.stringify(named)).toContain(cad.key);
    expect((await lifecycle(r1.id)).verdict).toBe('COMPLETED_VERIFIED');
  }, 120_000);

  it("revising another run's item is explicit: refused by key without `revise`, recorded with it, and run 1 goes stale naming run 2", async () => {
    const P = 'p-revise';
    const r1 = (await start(P)).json;
    await approveThrough(r1.id, MECH);
    const cad1 = await cadOf(r1.id);

    // Hostile first: an unknown key, and a key that is not a key, start nothing.
    const before = (await http('GET', `/v1/runs?project_id=${P}`)).json.total;
    const unknown = await start(P, {}, { revise: ['CAD-NO-SUCH-ITEM'] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { revise: ['CAD-NO-SUCH-ITEM'] } });
    expect(unknown.json.error.message).toContain('CAD-NO-SUCH-ITEM');
    expect((await start(P, {}, { revise: [`${cad1.key}@1`] })).status).toBe(422);
    expect((await start('p-other-project', {}, { revise: [cad1.key] })).status).toBe(422);
    // The same through the flow tool an agent starts runs with.
    const viaTool = await callTool(node.handle.broker, 'flow.start_run', {
      design_flow: 'mech_v1',
      project_id: P,
      goal: 'a bracket',
      revise: ['CAD-NO-SUCH-ITEM'],
    });
    expect(viaTool).toMatchObject({ status: 'error', error: { type: 'INVALID_ARGUMENTS' } });
    expect(JSON.stringify(viaTool)).toContain('CAD-NO-SUCH-ITEM is not an item of project');
    expect((await http('GET', `/v1/runs?project_id=${P}`)).json.total).toBe(before);

    // A run that did not list the key may not revise it by key either (a model-driven phase naming it): nothing written.
    const plain = (await start(P)).json;
    const refused = await call(node.handle.broker, TwinActions.writeDefinition, {
      project_id: P,
      item_type: 'cad_model',
      name: cad1.name,
      item_key: cad1.key,
      writer: { run_id: plain.id, phase: 'design' },
    }).catch((err: unknown) => toActorErrorShape(err));
    expect(refused).toMatchObject({ code: 'CONFLICT' });
    expect((refused as { message: string }).message).toContain(`belongs to run ${r1.id}`);
    await call(node.handle.broker, RunsActions.cancel, { run_id: plain.id, reason: 'not needed' });

    // With `revise`, the run shows it before its first phase and its design phase drafts cad1's next revision.
    const started = await start(P, { stressMpa: 70 }, { revise: [cad1.key] });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const r2 = started.json;
    expect(r2.revise).toEqual([cad1.key]);
    expect((await http('GET', `/v1/runs/${r2.id}`)).json.revise).toEqual([cad1.key]);
    await approveThrough(r2.id, MECH);
    const cad2 = await cadOf(r2.id);
    expect(cad2).toMatchObject({ key: cad1.key, revision: 2, status: 'approved' });
    expect((await lifecycle(r2.id)).verdict).toBe('COMPLETED_VERIFIED');

    const l1 = await lifecycle(r1.id);
    expect(l1.verdict).toBe('PARTIALLY_COMPLETED');
    const entry = l1.stale.find((e: Json) => e.ref === cad1.ref);
    expect(entry, JSON.stringify(l1.stale)).toMatchObject({ phase: 'design' });
    expect(entry.reason).toContain(`${cad1.ref} was superseded by ${cad1.key}@2`);
    expect(entry.reason).toContain(`revised by run ${r2.id} as its request asked (revise: ${cad1.key})`);
    expect(l1.phases.find((p: Json) => p.id === 'design')).toMatchObject({ validity: 'STALE' });
    const history = (await http('GET', `/v1/twin/items/${cad1.key}/revisions`)).json;
    expect(history.origin_run_id).toBe(r1.id);
    const rev2 = (history.revisions as Json[]).find((r) => r.revision === 2);
    expect(rev2).toMatchObject({ run_id: r2.id });
    expect(rev2!.change_reason).toContain(`revised by run ${r2.id}`);
  }, 120_000);
});
