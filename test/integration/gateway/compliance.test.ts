import { describe, expect, it } from 'vitest';
import {
  ComplianceChecklistSchema,
  ComplianceCoverageSchema,
  ComplianceEvidenceListSchema,
  type ComplianceChecklist,
} from '../../../contracts/compliance.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { getJson, postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';
import { MAX_VON_MISES, STEP, twinTools, YIELD_S690 } from '../../support/cantilever-evidence.ts';

// The compliance routes over HTTP (issue 18): a project's requirements judged on the evidence in its twin. The FEA
// result is the real CalculiX field of the shared cantilever fixture (1000 N at the tip of a 200 x 20 x 10 mm steel
// beam), recorded with its field against the committed geometry as an agent records it.

const t = useTestNode({ realDb: true });

const { tool, newProject, cantilever } = twinTools(t);

async function compliance(project: string) {
  const [checklist, coverage, evidence] = await Promise.all(
    ['checklist', 'coverage', 'evidence'].map((part) => getJson(`${t.url}/v1/compliance/${project}/${part}`)),
  );
  for (const r of [checklist, coverage, evidence]) expect(r.status, JSON.stringify(r.body)).toBe(200);
  return {
    checklist: ComplianceChecklistSchema.parse(checklist.body),
    coverage: ComplianceCoverageSchema.parse(coverage.body),
    evidence: ComplianceEvidenceListSchema.parse(evidence.body),
  };
}
const itemOf = (c: ComplianceChecklist, ref: string) => c.items.find((i) => i.ref === ref)!;

describe('compliance of a project with no requirements', () => {
  it('is an empty checklist with 0 % coverage, not an error', async () => {
    const project = await newProject('nothing yet');
    const { checklist, coverage, evidence } = await compliance(project);
    expect(checklist).toMatchObject({
      project_id: project,
      target_markets: [],
      total_items: 0,
      evidenced_items: 0,
      coverage_percent: 0,
      items: [],
      packs: [],
    });
    expect(coverage).toMatchObject({ total_items: 0, coverage_percent: 0, by_status: { verified: { count: 0 } } });
    expect(evidence).toEqual({ project_id: project, total: 0, items: [] });
  });
});

describe('a cantilever with a stress requirement', () => {
  it('is verified by the FEA result of the current geometry, and stale after a new geometry revision', async () => {
    const c = await cantilever('cantilever pass', YIELD_S690);
    let r = await compliance(c.project);
    expect(itemOf(r.checklist, c.ref)).toMatchObject({
      status: 'verified',
      evidenced: true,
      value: MAX_VON_MISES,
      verification_method: 'analysis',
      discipline: 'mechanical',
      requirement: { set_ref: c.cs.item_ref, limit: YIELD_S690 },
      evidence: [{ node_id: c.result.node_id, kind: 'simulation_result', analysed_ref: c.geom.item_ref, stale: false }],
    });
    expect(r.checklist).toMatchObject({ total_items: 1, evidenced_items: 1, coverage_percent: 100 });
    expect(r.coverage.by_method.analysis).toMatchObject({ total_items: 1, evidenced_items: 1 });
    expect(r.evidence.items.find((e) => e.node_id === c.result.node_id)).toMatchObject({
      stale: false,
      analysed_geometry: { node_id: c.geom.node_id, ref: c.geom.item_ref, current: true },
      verifies: [c.ref],
    });

    // A new geometry revision, no new solve: the result analysed a superseded revision.
    const next = await tool(c.project, 'commit_geometry', {
      name: 'Cantilever beam',
      item_key: c.geom.item_key,
      step_base64: STEP,
      properties: { bounding_box: { min: [0, 0, 0], max: [180, 20, 10] } },
      change_reason: 'shorter beam',
    });
    expect(next.revision).toBe(2);
    r = await compliance(c.project);
    const item = itemOf(r.checklist, c.ref);
    expect(item).toMatchObject({ status: 'stale', evidenced: false, value: null });
    expect(item.evidence[0]).toMatchObject({ node_id: c.result.node_id, stale: true });
    expect(r.coverage).toMatchObject({ evidenced_items: 0, coverage_percent: 0, by_status: { stale: { count: 1 } } });
    expect(r.evidence.items.find((e) => e.node_id === c.result.node_id)).toMatchObject({
      stale: true,
      stale_reason: expect.stringContaining(`${c.geom.item_ref} was superseded`),
      analysed_geometry: { ref: c.geom.item_ref, current: false },
    });
  });

  it('failed when the FEA result exceeds the limit', async () => {
    const c = await cantilever('cantilever fail', YIELD_S690 / 2);
    const { checklist } = await compliance(c.project);
    expect(itemOf(checklist, c.ref)).toMatchObject({ status: 'failed', evidenced: true, value: MAX_VON_MISES });
  });

  it('waived once a person approves the design change that waives it on the constraint set', async () => {
    const c = await cantilever('cantilever waived', YIELD_S690 / 2);
    const change = await okData<{ approval_id: string }>(
      callTool(
        t.node.broker,
        'twin.propose_change',
        {
          project_id: c.project,
          target: c.cs.item_ref,
          title: 'Waive REQ-STRESS',
          rationale: 'the peak is the singular clamped edge; the customer accepts it',
          changes: { waivers: { 'REQ-STRESS': 'singular peak at the clamp, accepted by the customer' } },
        },
        { kind: 'service', transport: 'internal' },
      ),
    );
    // Still failing until a person approves.
    expect(itemOf((await compliance(c.project)).checklist, c.ref).status).toBe('failed');
    const decided = await postJson(
      `${t.url}/v1/approvals/${change.approval_id}/decision`,
      { decision: 'approve', reason: 'accepted' },
      { 'x-service-surface': 'dashboard' },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const item = itemOf((await compliance(c.project)).checklist, c.ref);
    expect(item).toMatchObject({
      status: 'waived',
      waiver: {
        set_ref: `${c.cs.item_key}@2`,
        approved_by: 'local:dashboard',
        reason: 'singular peak at the clamp, accepted by the customer',
      },
    });
  });
});

describe('bad project ids', () => {
  it('answer 404 for an unknown project (uuid or not) and 422 for a malformed one, in the error body, never 500', async () => {
    const cases: [string, number][] = [
      ['5f0c1a3e-9d1b-4f7e-8a53-1c2d3e4f5a6b', 404],
      ['not-a-uuid', 404],
      ['%00', 422],
      ['a%0Ab', 422],
      ['x'.repeat(201), 422],
    ];
    for (const [id, status] of cases) {
      for (const part of ['checklist', 'coverage', 'evidence']) {
        const res = await getJson(`${t.url}/v1/compliance/${id}/${part}`);
        expect(res.status, `${id} ${part}: ${JSON.stringify(res.body)}`).toBe(status);
        expect(ErrorBodySchema.parse(res.body).error.code).toBe(status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED');
      }
    }
  });
});
