import { describe, expect, it } from 'vitest';
import { ComplianceChecklistSchema, ComplianceEvidenceListSchema } from '../../contracts/compliance.ts';
import { useTestNode } from '../support/node.ts';
import { callTool, okData } from '../support/tools.ts';

/**
 * The done-when for compliance: the compliance routes answer for the mech_v1 cantilever project (the 100 N
 * run of flow-cantilever.test.ts, on the real engines): the stress requirement is verified by its FEA result; after a
 * new geometry revision without a new solve it is stale.
 */
const t = useTestNode({ realDb: true, workspace: 'compliance-ws-', startTimeoutMs: 120_000 });

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (p: string, body: unknown) =>
  fetch(`${t.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(json);
const get = (p: string) => fetch(`${t.url}${p}`).then(json);

async function approveAllGates(runId: string) {
  for (const phase of ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation']) {
    await expect
      .poll(
        async () => {
          const v = (await get(`/v1/runs/${runId}`)).body;
          if (['failed', 'rejected', 'cancelled'].includes(v.status))
            throw new Error(`run ended: ${JSON.stringify(v)}`);
          return v.gate?.phase ?? null;
        },
        { timeout: 240_000, interval: 250 },
      )
      .toBe(phase);
    const decided = await post(`/v1/runs/${runId}/approval`, { decision: 'approve', reason: `${phase} ok` });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  }
}

async function checklist(project: string) {
  const res = await get(`/v1/compliance/${project}/checklist`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ComplianceChecklistSchema.parse(res.body);
}

describe('compliance of the mech_v1 cantilever', () => {
  it('verifies the stress requirement by the FEA result, and makes it stale after a new geometry revision', async () => {
    const project = (await post('/v1/projects', { name: 'cantilever bracket' })).body.id as string;
    const run = await post('/v1/runs', {
      design_flow: 'mech_v1',
      project_id: project,
      goal: 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2',
      start: true,
    });
    expect(run.status).toBe(201);
    await approveAllGates(run.body.id);

    let c = await checklist(project);
    expect(c).toMatchObject({ design_flows: ['mech_v1'], product_types: ['mechanical_part'], target_markets: [] });
    expect(c.packs.map((p) => p.id)).toEqual(['ISO-2768']);
    const stress = c.items.find((i) => i.requirement?.id === 'REQ-STRESS')!;
    const results = (await get(`/v1/simulation/results?project_id=${project}`)).body.results;
    expect(results).toHaveLength(1);
    expect(stress).toMatchObject({
      status: 'verified',
      verification_method: 'analysis',
      mandatory: true,
      value: results[0].max_von_mises_mpa,
      evidence: [{ node_id: results[0].id, kind: 'simulation_result', stale: false }],
    });
    // The envelope requirements are inspected on the committed geometry's bounding box.
    for (const id of ['REQ-ENV-1', 'REQ-ENV-2', 'REQ-ENV-3'])
      expect(c.items.find((i) => i.requirement?.id === id)).toMatchObject({
        status: 'verified',
        verification_method: 'inspection',
      });
    // No drawing was made: the ISO 2768 items are unverified (advisory).
    expect(c.items.filter((i) => i.source === 'pack').map((i) => [i.status, i.mandatory])).toEqual([
      ['unverified', false],
      ['unverified', false],
    ]);
    expect(c.prd?.outdated_refs).toEqual([]);

    // A new geometry revision without a new solve.
    const cad = c.items.find((i) => i.requirement?.id === 'REQ-ENV-1')!.evidence[0];
    const staged = await okData(callTool(t.node.broker, 'twin.stage_work_product_file', { item_key: cad.item_ref }));
    const next = await okData(
      callTool(t.node.broker, 'twin.commit_geometry', {
        project_id: project,
        name: cad.name,
        item_key: cad.item_ref,
        file_path: staged.file_path,
        change_reason: 'same part, new revision: the result no longer analyses the head',
      }),
    );
    expect(next.revision).toBe((cad.revision ?? 0) + 1);
    c = await checklist(project);
    expect(c.items.find((i) => i.requirement?.id === 'REQ-STRESS')).toMatchObject({
      status: 'stale',
      evidenced: false,
    });
    const evidence = ComplianceEvidenceListSchema.parse((await get(`/v1/compliance/${project}/evidence`)).body);
    expect(evidence.items.find((e) => e.node_id === results[0].id)).toMatchObject({
      stale: true,
      analysed_geometry: { ref: cad.item_ref, current: false },
    });
  }, 600_000);
});
