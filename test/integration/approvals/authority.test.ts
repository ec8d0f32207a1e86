import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalsInternal } from '../../../actors/approvals/approvals.contract.ts';
import { call } from '../../../brokers/actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import { APPROVAL_ROLES, startApprovalsNode, type ApprovalsNode } from '../../support/approvals.ts';
import type { Json } from '../../support/http-raw.ts';
import { STEP, twinTools, YIELD_S690 } from '../../support/cantilever-evidence.ts';
import { testClock } from '../../support/holds.ts';
import { callTool, okData } from '../../support/tools.ts';

// Issue 18: the human-authority tools file a request a person decides; approving it takes effect. The tools are called
// through the registry's real dispatch path, the decisions over HTTP on the approvals API.

let t: ApprovalsNode;
const clock = testClock(Date.now());
const DASH = { 'x-service-surface': 'dashboard' };
// A local agent (stdio: its writes are not held by default); a flow phase (service caller) may not call these tools.
const service = { kind: 'stdio', transport: 'stdio', client: 'authority-test' } as const;

beforeAll(async () => {
  t = await startApprovalsNode({ roles: `${APPROVAL_ROLES},adapter:cadscript`, clock });
}, 120_000);
afterAll(() => t?.stop());

async function project(name: string): Promise<string> {
  const r = await t.http('POST', '/v1/projects', { name });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return String(r.json.id);
}

/** Calls a human-authority tool: it files a request and refuses to decide it; answers the request's approval id. */
async function request(name: string, args: Record<string, unknown>, projectId: string): Promise<string> {
  const r = await callTool(t.node.broker, `twin.${name}`, args, { ...service, project_id: projectId });
  expect(r.status, JSON.stringify(r)).toBe('error');
  const details = (r as { error: { details: Record<string, unknown> } }).error.details;
  expect(details).toMatchObject({ code: 'human_authority_required', kind: name });
  return String(details.request_id);
}

const decide = (id: string, body: Json) => t.http('POST', `/v1/approvals/${id}/decision`, body, DASH);
const item = async (id: string) => (await t.http('GET', `/v1/approvals/${id}`, undefined, DASH)).json;

describe('twin.approve_engineering_change', () => {
  it('applies the change through the atomic commit when a person approves; a patch conflict is 409 and stays pending', async () => {
    const p = await project('Change authority');
    const spec = await call(t.node.broker, TwinActions.writeDefinition, {
      project_id: p,
      item_type: 'bracket_spec',
      name: 'Bracket spec',
      properties: { thickness_mm: 3, material: 'S235' },
    });
    const propose = (changes: Json, title: string) =>
      okData(
        callTool(
          t.node.broker,
          'twin.propose_change',
          { target: `${spec.item_key}@1`, title, rationale: `${title}: stress margin`, changes },
          { ...service, project_id: p },
        ),
      );
    const first = await propose({ thickness_mm: 4 }, 'Thicker bracket');
    const second = await propose({ thickness_mm: 5 }, 'Even thicker bracket');

    const req1 = await request('approve_engineering_change', { change_id: first.change_id }, p);
    expect(await item(req1)).toMatchObject({ kind: 'human_authority', status: 'pending' });
    const ok = await decide(req1, { decision: 'approve' });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json.decision.outcome).toMatchObject({ status: 'applied', applied_ref: `${spec.item_key}@2` });
    const head = await call(t.node.broker, TwinActions.getNode, { item_key: spec.item_key });
    expect(head.properties).toMatchObject({ thickness_mm: 4, material: 'S235' });
    expect((await item(`change:${first.change_id}`)).status).toBe('approved');

    // The second change names @1, and the head is @2 now: nothing is written, both stay pending.
    const req2 = await request('approve_engineering_change', { change_id: second.change_id }, p);
    const conflict = await decide(req2, { decision: 'approve' });
    expect(conflict.status, JSON.stringify(conflict.json)).toBe(409);
    expect(JSON.stringify(conflict.json)).toContain('the head is now @2');
    expect((await item(req2)).status).toBe('pending');
    expect((await item(`change:${second.change_id}`)).status).toBe('pending');
    expect((await call(t.node.broker, TwinActions.getNode, { item_key: spec.item_key })).properties).toMatchObject({
      thickness_mm: 4,
    });
    // A person can still reject the request (with a reason); the change stays for its own decision.
    expect((await decide(req2, { decision: 'reject', reason: 'rebase it on @2' })).status).toBe(200);

    // An agent never decides one (rule unchanged).
    const req3 = await request('approve_engineering_change', { change_id: second.change_id }, p);
    const agent = await t.http(
      'POST',
      `/v1/approvals/${req3}/decision`,
      { decision: 'approve' },
      { 'x-service-surface': 'agent', 'x-service-on-behalf-of': 'ann', 'x-service-agent': 'bot' },
    );
    expect(agent.status).toBe(403);
  });

  it('refuses a request naming a change of another project, or no change, with 409 and writes nothing', async () => {
    const [a, b] = [await project('Change A'), await project('Change B')];
    const spec = await call(t.node.broker, TwinActions.writeDefinition, {
      project_id: a,
      item_type: 'bracket_spec',
      name: 'Spec A',
      properties: { thickness_mm: 3 },
    });
    const change = await okData(
      callTool(
        t.node.broker,
        'twin.propose_change',
        { target: spec.item_key, title: 'A change', rationale: 'r', changes: { thickness_mm: 9 } },
        { ...service, project_id: a },
      ),
    );
    for (const change_id of [change.change_id, 'not-a-node', '00000000-0000-4000-8000-000000000000']) {
      const req = await request('approve_engineering_change', { change_id }, b);
      const r = await decide(req, { decision: 'approve' });
      expect(r.status, JSON.stringify(r.json)).toBe(409);
      expect((await item(req)).status).toBe('pending');
    }
    expect((await item(`change:${change.change_id}`)).status).toBe('pending');
  });
});

describe('twin.approve_design_loop', () => {
  const loopSpec = {
    tool: 'cadscript.create_parametric',
    // No output_path: each iteration's file goes to its own scratch folder (a fixed output_path would be refused from
    // the second iteration on, as the file exists: decision 0030).
    arguments: { shape_type: 'box', parameters: { length: 10, width: 10, height: 10 } },
    parameter: 'parameters.height',
    candidates: [4, 2, 6],
    metric: 'volume_mm3',
    goal: 'minimize',
  };

  async function loopNow(id: string, iterations: number): Promise<Json> {
    let it: Json = {};
    await expect
      .poll(
        async () => {
          it = await item(`design_loop:${id}`);
          return it.status === 'pending' && it.detail.iterations.length === iterations;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);
    return it;
  }

  it('runs the next iteration each time a person approves, and names the best-scoring iteration the winner', async () => {
    const p = await project('Loop authority');
    const loop = await okData(
      callTool(
        t.node.broker,
        'twin.record_document',
        { document_type: 'design_loop', name: 'Box height', content: 'smallest box', properties: loopSpec },
        { ...service, project_id: p },
      ),
    );
    expect(loop).toMatchObject({ document_type: 'design_loop', approval_id: `design_loop:${loop.node_id}` });
    expect(await item(`design_loop:${loop.node_id}`)).toMatchObject({
      status: 'pending',
      allowed_decisions: ['approve'],
    });

    const req1 = await request('approve_design_loop', { design_loop_id: loop.node_id }, p);
    const r1 = await decide(req1, { decision: 'approve' });
    expect(r1.status, JSON.stringify(r1.json)).toBe(200);
    expect(r1.json.decision.outcome).toMatchObject({
      design_loop_id: loop.node_id,
      next_iteration: { index: 0, value: 4, tool: 'cadscript.create_parametric', status: 'running' },
    });
    const after1 = await loopNow(loop.node_id, 1);
    expect(after1.detail.loop).toMatchObject({ scores: [400], next_value: 2 });
    const first = after1.detail.winning_iteration.id;

    // Approved straight on the queue item this time: the winner (400 mm³) is approved, and height 2 runs.
    expect((await decide(`design_loop:${loop.node_id}`, { decision: 'approve' })).status).toBe(200);
    const after2 = await loopNow(loop.node_id, 2);
    expect(after2.detail.loop.scores).toEqual([400, 200]);
    expect(after2.detail.winning_iteration.id).not.toBe(first);
    const approvedFirst = await call(t.node.broker, TwinActions.getNode, { node_id: first });
    expect(approvedFirst.properties).toMatchObject({ approved: true, design_loop_id: loop.node_id, score: 400 });

    const req3 = await request('approve_design_loop', { design_loop_id: loop.node_id }, p);
    expect((await decide(req3, { decision: 'approve' })).status).toBe(200);
    const after3 = await loopNow(loop.node_id, 3);
    expect(after3.detail.loop).toMatchObject({ scores: [400, 200, 600], next_value: null });
    expect(after3.detail.winning_iteration.id).toBe(after2.detail.winning_iteration.id);

    // The last approval runs nothing: the loop is done, and its winner is approved.
    const last = await decide(`design_loop:${loop.node_id}`, { decision: 'approve' });
    expect(last.status).toBe(200);
    expect(last.json.status).toBe('approved');
    const loopNode = await call(t.node.broker, TwinActions.getNode, { node_id: loop.node_id });
    expect(loopNode.properties).toMatchObject({ status: 'approved', next_index: 3 });
  });

  it('runs again the iteration of a loop its node left iterating, once an iteration could no longer be running', async () => {
    const p = await project('Loop resumed');
    const loop = await call(t.node.broker, TwinActions.recordNode, {
      project_id: p,
      node_type: 'design_loop',
      name: 'Left iterating',
      properties: {
        ...loopSpec,
        status: 'iterating',
        next_index: 0,
        iterations: [],
        scores: [],
        winning_iteration: null,
      },
    });
    // Not yet: an iteration may still be running somewhere for up to 600 s.
    expect(await call(t.node.broker, ApprovalsInternal.deliver, {})).toMatchObject({ loops_resumed: 0 });
    clock.advance(661);
    expect(await call(t.node.broker, ApprovalsInternal.deliver, {})).toMatchObject({ loops_resumed: 1 });
    const after = await loopNow(loop.node.id, 1);
    expect(after.detail.loop).toMatchObject({ scores: [400], next_value: 2 });
  });

  it('refuses a loop that would run a writing tool or reach outside its arguments, before anything is written', async () => {
    const p = await project('Loop hostile');
    for (const bad of [
      { ...loopSpec, tool: 'twin.record_decision' },
      { ...loopSpec, tool: 'project.delete' },
      { ...loopSpec, parameter: '__proto__.polluted' },
      { ...loopSpec, candidates: [] },
      { ...loopSpec, goal: 'whatever' },
    ]) {
      const r = await callTool(
        t.node.broker,
        'twin.record_document',
        { document_type: 'design_loop', name: 'Bad loop', properties: bad },
        { ...service, project_id: p },
      );
      expect(r.status, JSON.stringify(bad)).toBe('error');
      expect((r as { error: { type: string } }).error.type).toBe('INVALID_ARGUMENTS');
    }
    const pending = await t.http('GET', `/v1/approvals?project_id=${p}&kind=design_loop`, undefined, DASH);
    expect(pending.json.items).toEqual([]);
  });
});

describe('twin.attempt_promotion', () => {
  const promotion = (projectId: string, extra: Json = {}) =>
    request('attempt_promotion', { projectId, level: 'L2', requiredClaimIds: [], ...extra }, projectId);

  it('promotes when every requirement is verified on current evidence: the maturity item gets its revision', async () => {
    const c = await twinTools(t).cantilever('Promote verified', YIELD_S690);
    const req = await promotion(c.project, { comment: 'ready for review' });
    const r = await decide(req, { decision: 'approve', reason: 'evidence checked' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const outcome = r.json.decision.outcome;
    expect(outcome).toMatchObject({
      gateId: req,
      level: 'L2',
      promoted: true,
      blockedReason: null,
      decidedBy: 'local:dashboard',
      comment: 'ready for review',
      results: [{ claimId: c.ref, status: 'verified', met: true, verified_by: [c.result.node_id] }],
    });
    const maturity = await call(t.node.broker, TwinActions.getNode, { node_id: outcome.node_id });
    expect(maturity).toMatchObject({ item_ref: outcome.item_ref, revision: 1 });
    expect(maturity.properties).toMatchObject({ level: 'L2', promoted: true, decidedBy: 'local:dashboard' });
    const view = await t.http('GET', `/v1/twin/current-view?project_id=${c.project}`);
    expect(JSON.stringify(view.json)).toContain('"maturity"');
  });

  it('answers the failing criteria with 409 and leaves the request pending: failed, stale, unknown claims, no requirements', async () => {
    const tools = twinTools(t);
    const failed = await tools.cantilever('Promote failed', YIELD_S690 / 2);
    const stale = await tools.cantilever('Promote stale', YIELD_S690);
    await tools.tool(stale.project, 'commit_geometry', {
      name: 'Cantilever beam',
      item_key: stale.geom.item_key,
      step_base64: STEP,
      properties: { bounding_box: { min: [0, 0, 0], max: [180, 20, 10] } },
      change_reason: 'shorter beam, not solved again',
    });
    const empty = await tools.newProject('Promote nothing');
    const cases: [string, Json, string][] = [
      [failed.project, {}, `${failed.ref} is failed`],
      [stale.project, {}, `${stale.ref} has stale evidence`],
      [stale.project, { requiredClaimIds: ['CS-NOPE:REQ-1'] }, 'CS-NOPE:REQ-1 is not a requirement of this project'],
      [empty, {}, 'the project has no requirements to promote on'],
      [failed.project, { reject: true }, 'reject: true'],
    ];
    for (const [projectId, extra, why] of cases) {
      const req = await promotion(projectId, extra);
      const r = await decide(req, { decision: 'approve' });
      expect(r.status, JSON.stringify(r.json)).toBe(409);
      expect(r.json.error.message).toContain(why);
      expect((await item(req)).status).toBe('pending');
    }
    // Nothing was promoted: no maturity item in those projects.
    for (const projectId of [failed.project, stale.project, empty]) {
      const view = await t.http('GET', `/v1/twin/current-view?project_id=${projectId}`);
      expect(view.status).toBe(200);
      expect(JSON.stringify(view.json)).not.toContain('"maturity"');
    }
  });
});
