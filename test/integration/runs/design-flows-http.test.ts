import { describe, expect, it } from 'vitest';
import { useFlowNode } from '../../support/flow-node.ts';
import type { Json } from '../../support/http-raw.ts';

const node = useFlowNode();
const { http } = node;

const gateOf = (id: string) =>
  expect.poll(async () => (await http('GET', `/v1/runs/${id}`)).json.gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });
const approve = async (id: string, phase: string) => {
  await gateOf(id).toBe(phase);
  expect((await http('POST', `/v1/runs/${id}/approval`, { decision: 'approve' })).status).toBe(200);
};
/** Stands in for the approvals work: a person approved patch `version` of the run (kind flow_patch). */
const approvePatch = async (runId: string, version: number) => {
  const db = await node.handle.infra.db();
  await db.query(
    `UPDATE flow_patches SET status = 'approved', decided_by = 'local:dashboard', decided_at = now() WHERE run_id = $1 AND version = $2`,
    [runId, version],
  );
};
const reviewPhase = (extra: Json = {}) => ({
  id: 'review',
  title: 'Design review',
  objective: 'Review the concept with the customer.',
  required_deliverables: ['design_decision'],
  gate: { name: 'Customer review', gate_id: 'GR' },
  ...extra,
});

describe('flow patches over HTTP', () => {
  it('refuses a condition that does not parse with 422 naming the position, and a patch of a phase the run moved past as stale', async () => {
    const run = (
      await http('POST', '/v1/runs', { design_flow: 'mech_v1', project_id: 'p-patch-bad', goal: 'a bracket' })
    ).json;
    await approve(run.id, 'intent');
    const bad = await http('POST', `/v1/runs/${run.id}/patches`, {
      operations: [
        {
          op: 'add_phase',
          phase: reviewPhase({ condition: 'route == full and loads_known in [yes' }),
          after: 'feasibility',
        },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.message).toBe(
      'phase review: condition does not parse at position 38: expected "]" at the end',
    );
    expect(bad.json.error.details.position).toBe(38);
    const past = await http('POST', `/v1/runs/${run.id}/patches`, {
      operations: [{ op: 'modify_phase', phase_id: 'intent', changes: { title: 'Goal' } }],
    });
    expect(past.status).toBe(409);
    expect(past.json.error.message).toBe('stale: the run moved past intent');
    expect(
      (await http('POST', `/v1/runs/${run.id}/patches`, { operations: [{ op: 'remove_phase', phase_id: 'ghost' }] }))
        .status,
    ).toBe(422);
    expect((await http('POST', `/v1/runs/${run.id}/patches`, { operations: [] })).status).toBe(422);
    expect(
      (await http('POST', '/v1/runs/run_nope/patches', { operations: [{ op: 'remove_phase', phase_id: 'design' }] }))
        .status,
    ).toBe(404);
  });

  it('holds a patch until approved, then the run continues on the new version; a later patch goes stale when the run moves past it', async () => {
    const run = (await http('POST', '/v1/runs', { design_flow: 'mech_v1', project_id: 'p-patch', goal: 'a bracket' }))
      .json;
    await gateOf(run.id).toBe('intent');
    const proposed = await http('POST', `/v1/runs/${run.id}/patches`, {
      operations: [{ op: 'add_phase', phase: reviewPhase(), after: 'feasibility' }],
      reason: 'the customer reviews the concept',
    });
    expect(proposed.status).toBe(201);
    expect(proposed.json).toMatchObject({
      version: 1,
      status: 'pending',
      base_hash: run.content_hash,
      affected: ['review', 'design'],
      approval: { kind: 'flow_patch', status: 'pending' },
    });
    expect(proposed.json.content_hash).not.toBe(run.content_hash);

    const early = await http('POST', `/v1/runs/${run.id}/patches/1/apply`);
    expect(early.status).toBe(409);
    expect(early.json.error.message).toMatch(/is not approved/);
    expect((await http('POST', `/v1/runs/${run.id}/patches/9/apply`)).status).toBe(404);

    await approvePatch(run.id, 1);
    const applied = await http('POST', `/v1/runs/${run.id}/patches/1/apply`);
    expect(applied.status).toBe(200);
    expect(applied.json).toEqual({
      runId: run.id,
      versionId: proposed.json.version_id,
      rerun: [],
      nextStep: expect.stringMatching(/continues on the patched flow/),
    });
    const state = (await http('GET', `/v1/runs/${run.id}/flow-state`)).json;
    expect(state).toMatchObject({ version_id: proposed.json.version_id, content_hash: proposed.json.content_hash });
    expect(state.phases.map((p: Json) => p.id)).toEqual([
      'intent',
      'needs',
      'requirements',
      'feasibility',
      'review',
      'design',
      'simulation',
    ]);
    expect(state.phases.find((p: Json) => p.id === 'design').depends_on).toEqual(['review']);

    const later = await http('POST', `/v1/runs/${run.id}/patches`, {
      operations: [
        { op: 'modify_phase', phase_id: 'requirements', changes: { objective: 'Only mass and stress limits.' } },
      ],
    });
    expect(later.json).toMatchObject({ version: 2, base_hash: proposed.json.content_hash });
    for (const phase of ['intent', 'needs', 'requirements', 'feasibility']) await approve(run.id, phase);
    await gateOf(run.id).toBe('review');
    await approvePatch(run.id, 2);
    const stale = await http('POST', `/v1/runs/${run.id}/patches/2/apply`);
    expect(stale.status).toBe(409);
    expect(stale.json.error.message).toBe('stale: the run moved past requirements');
    const db = await node.handle.infra.db();
    expect(
      (
        await db.query<{ status: string }>('SELECT status FROM flow_patches WHERE run_id = $1 AND version = 2', [
          run.id,
        ])
      ).rows[0].status,
    ).toBe('stale');
    expect((await http('POST', `/v1/runs/${run.id}/patches/1/apply`)).json.rerun).toEqual([]);
  });
});

describe('capability reports and the intent compiler over HTTP', () => {
  it('reports a built-in flow over the registered tools, a stored version, and refuses unknown flows and profiles', async () => {
    const mech = await http('GET', '/v1/design-flows/mech_v1/capabilities');
    expect(mech.status).toBe(200);
    expect(mech.json).toMatchObject({
      flowId: 'mech_v1',
      versionId: null,
      profile: null,
      // This node serves no CAD engine: the design phase's handler could not make its cad_model.
      report: { status: 'BLOCKED' },
    });
    const design = mech.json.report.phases.find((p: Json) => p.id === 'design');
    expect(design.deliverables).toEqual([
      expect.objectContaining({ type: 'cad_model', capability: 'PARTIAL', tools_available: ['twin.commit_geometry'] }),
    ]);
    expect(design).toMatchObject({ runnable: false, handler: 'deterministic', status: 'BLOCKED' });
    expect(design.missing).toEqual([
      'tool cadscript.create_parametric (for cad_model) is not among the registered tools (adapter cadscript)',
    ]);
    expect(mech.json.report.phases[0]).toMatchObject({
      id: 'intent',
      status: 'READY',
      runnable: true,
      missing: [],
      deliverables: [{ type: 'intent', capability: 'FULL' }],
    });

    const core = await http('GET', '/v1/design-flows/mech_v1/capabilities?profile=core');
    expect(core.json.report.status).toBe('BLOCKED');
    expect(core.json.report.phases.find((p: Json) => p.id === 'design').deliverables[0].capability).toBe('UNAVAILABLE');

    const unknown = await http('GET', '/v1/design-flows/rocket_v9/capabilities');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.details.valid).toEqual(['hardware_v1', 'mech_v1']);
    expect((await http('GET', '/v1/design-flows/mech_v1/capabilities?profile=wizardry')).status).toBe(422);

    const run = (await http('POST', '/v1/runs', { design_flow: 'hardware_v1', goal: 'a robot arm' })).json;
    const version = await http(
      'GET',
      `/v1/design-flows/versions/${encodeURIComponent(run.version_id)}/capabilities?profile=mechanical_product`,
    );
    expect(version.status).toBe(200);
    expect(version.json).toMatchObject({
      flowId: 'hardware_v1',
      versionId: run.version_id,
      profile: 'mechanical_product',
    });
    expect(version.json.report.phases).toHaveLength(11);
    expect((await http('GET', '/v1/design-flows/versions/nope@1/capabilities')).status).toBe(404);
  });

  it('compiles the intent model from a request', async () => {
    const r = await http('POST', '/v1/design-flows/intent', {
      request: 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2',
    });
    expect(r.status).toBe(200);
    expect(r.json.parameters).toMatchObject({ dimensions_mm: [200, 20, 10], safety_factor: 2 });
    expect(r.json.parameters.loads[0].magnitude_n).toBe(100);
    expect(Array.isArray(r.json.unknowns)).toBe(true);
    expect((await http('POST', '/v1/design-flows/intent', { request: '' })).status).toBe(422);
  });
});
