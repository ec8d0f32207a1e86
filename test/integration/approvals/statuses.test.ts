import crypto from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TOOLCALL_CANCEL_EVENT } from '../../../contracts/actions/adapters.actions.ts';
import {
  designLoop,
  fileRequest,
  holdCall,
  holdsTick,
  pendingGate,
  recordNode,
  startApprovalsNode,
  startRun,
  writeDefinition,
} from '../../support/approvals.ts';
import { testClock } from '../../support/holds.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';

const clock = testClock();
const t = useNode((env) => startApprovalsNode({ env: { ...env, SERVICE_DESIGN_FLOW_STALL_STOP: '2' }, clock }));

type Json = Record<string, any>;
type Kind = 'gate' | 'tool' | 'change' | 'design_loop' | 'sketch' | 'drawing';
const nativeOf = (id: string) => id.slice(id.indexOf(':') + 1);

/** The unified decision route. */
const unified = (id: string, body: Json, headers: Record<string, string> = {}) =>
  t.http('POST', `/v1/approvals/${id}/decision`, body, headers);

/** The older per-kind route of an approval id, with that route's own body. */
function legacy(
  id: string,
  body: { decision: string; reason?: string; to_phase?: string },
  headers: Record<string, string> = {},
) {
  const kind = id.split(':')[0] as Kind;
  const n = nativeOf(id);
  if (kind === 'gate') return t.http('POST', `/v1/runs/${n}/approval`, body, headers);
  if (kind === 'tool') return t.http('POST', `/v1/chat/tool_approvals/${id}`, body, headers);
  if (kind === 'change')
    return t.http(
      'POST',
      `/v1/assistant/proposals/${n}/decide`,
      { change_id: n, reviewer: 'someone', reason: body.reason ?? 'looks right', decision: body.decision },
      headers,
    );
  if (kind === 'design_loop') return t.http('POST', `/v1/design-loop/${n}/approve`, { approvedBy: 'someone' }, headers);
  return t.http(
    'POST',
    `/v1/twin/nodes/${n}/${kind === 'sketch' ? 'approve-sketch' : 'approve-technical-drawing'}`,
    { approved_by: 'someone' },
    headers,
  );
}
const item = async (id: string) => (await t.http('GET', `/v1/approvals/${id}`)).json;
const project = () => `p-${crypto.randomUUID().slice(0, 8)}`;

/** One pending item of each kind in a fresh project; answers their approval ids. */
async function oneOfEach(p: string): Promise<Record<Kind, string>> {
  const run = await startRun(t, p);
  await pendingGate(t, run.id, 'intent');
  const change = await recordNode(t, p, 'design_change', 'Thicker web', {
    status: 'pending',
    target: 'CAD-BRACKET',
    rationale: 'stress margin',
  });
  const loop = await designLoop(t, p);
  return {
    gate: `gate:${run.id}`,
    tool: await fileRequest(t, p),
    change: `change:${change}`,
    design_loop: `design_loop:${loop.loop}`,
    sketch: `sketch:${await writeDefinition(t, p, 'sketch', 'Web profile')}`,
    drawing: `drawing:${await writeDefinition(t, p, 'technical_drawing', 'Bracket drawing')}`,
  };
}
const rejectOrApprove = (k: Kind) =>
  k === 'gate' || k === 'tool' || k === 'change'
    ? { decision: 'reject', reason: 'not this one' }
    : { decision: 'approve' };

describe('HTTP statuses of the approvals API, on the unified and on the older per-kind routes', () => {
  it('404 for an unknown id', async () => {
    const u = crypto.randomUUID();
    for (const id of [`gate:run_${u}`, `tool:${u}`, `change:${u}`, `design_loop:${u}`, `sketch:${u}`, `drawing:${u}`]) {
      const a = await unified(id, { decision: 'approve' });
      expect(a.status, id).toBe(404);
      expect(a.json.error.code).toBe('NOT_FOUND');
      expect((await legacy(id, { decision: 'reject', reason: 'x' })).status, `legacy ${id}`).toBe(404);
    }
    expect((await unified('nonsense:1', { decision: 'approve' })).status).toBe(404);
    expect((await t.http('GET', `/v1/approvals/tool:${u}`)).status).toBe(404);
    // A sketch id that names a drawing is no sketch.
    const drw = await writeDefinition(t, project(), 'technical_drawing', 'Not a sketch');
    expect((await legacy(`sketch:${drw}`, { decision: 'approve' })).status).toBe(404);
  });

  it('409 once decided, on every kind, whichever route decided first; a refused decision leaves the decision as it was', async () => {
    const p = project();
    const ids = await oneOfEach(p);
    for (const [kind, id] of Object.entries(ids) as [Kind, string][]) {
      const firstUnified = kind.length % 2 === 0;
      const first = firstUnified ? await unified(id, rejectOrApprove(kind)) : await legacy(id, rejectOrApprove(kind));
      expect(first.status, `${kind} first: ${JSON.stringify(first.json)}`).toBe(200);
      const decided = await item(id);
      expect(decided.status).toMatch(/^(approved|rejected)$/);
      expect(decided.decision).toMatchObject({
        approver: 'local:dashboard',
        approver_verified: false,
        surface: 'unknown',
      });
      for (const again of [() => unified(id, { decision: 'approve' }), () => legacy(id, { decision: 'approve' })]) {
        const r = await again();
        expect(r.status, `${kind} again`).toBe(409);
        expect(r.json.error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('already decided') });
      }
      expect((await item(id)).decision).toEqual(decided.decision);
    }
  });

  it('409 for an expired or canceled held call', async () => {
    const p = project();
    const expired = await holdCall(t, p);
    clock.advance(101);
    await holdsTick(t);
    expect((await item(expired.id)).status).toBe('expired');
    const canceled = await holdCall(t, p);
    await t.node.broker.broadcast(TOOLCALL_CANCEL_EVENT, {
      call_id: canceled.call_id,
      reason: 'the user pressed stop',
    });
    await expect.poll(async () => (await item(canceled.id)).status).toBe('canceled');
    for (const id of [expired.id, canceled.id]) {
      const s = (await item(id)).status;
      for (const r of [await unified(id, { decision: 'approve' }), await legacy(id, { decision: 'approve' })]) {
        expect(r.status).toBe(409);
        expect(r.json.error.message).toContain(`it is ${s}`);
      }
      expect((await item(id)).decision).toBeNull();
    }
  });

  it('409 while the question is in the client (route elicitation)', async () => {
    const p = project();
    const asked: ((r: ElicitResult) => void)[] = [];
    const client = new Client({ name: 'approvals-elicit', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => new Promise<ElicitResult>((answer) => asked.push(answer)));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    const res = client
      .callTool({ name: 'twin.record_decision', arguments: { project_id: p, title: 'Use M6 bolts', decision: 'M6' } })
      .catch((e: unknown) => e);
    await expect.poll(() => asked.length).toBe(1);
    const list = (await t.http('GET', `/v1/approvals?project_id=${p}&kind=tool_call`)).json;
    const held = list.items[0];
    expect(held).toMatchObject({
      route: 'elicitation',
      decidable: false,
      not_decidable_reason: expect.stringContaining('elicitation'),
    });
    for (const r of [await unified(held.id, { decision: 'approve' }), await legacy(held.id, { decision: 'approve' })]) {
      expect(r.status).toBe(409);
      expect(r.json.error.message).toContain('route elicitation');
    }
    asked[0]({ action: 'decline' });
    await res;
    await client.close();
  });

  it('409 at a gate that is not ready (approve), 422 for no reason, a bad to_phase or a decision the kind never offers', async () => {
    const p = project();
    const run = await startRun(t, p, { silent: ['intent'] });
    const gate = await pendingGate(t, run.id, 'intent');
    expect(gate).toMatchObject({
      allowed_decisions: ['reject', 'retry'],
      reason_required_for: ['reject', 'retry'],
      detail: { ready: false },
    });
    expect(gate.findings).toEqual([expect.objectContaining({ kind: 'missing_deliverable', severity: 'error' })]);
    for (const send of [unified, legacy]) {
      const notReady = await send(gate.id, { decision: 'approve' });
      expect(notReady.status).toBe(409);
      expect(notReady.json.error.message).toMatch(/not ready/);
      expect((await send(gate.id, { decision: 'reject' })).status).toBe(422);
      expect((await send(gate.id, { decision: 'retry', reason: '  ' })).status).toBe(422);
      const target = await send(gate.id, { decision: 'rework', reason: 'again', to_phase: 'simulation' });
      expect(target.status).toBe(422);
      expect(target.json.error.message).toMatch(/not a rework target of intent/);
    }
    const tool = await fileRequest(t, p);
    const retryTool = await unified(tool, { decision: 'retry', reason: 'x' });
    expect(retryTool.status).toBe(422);
    expect(retryTool.json.error.message).toContain('retry is not a decision on a human_authority');
    expect((await legacy(tool, { decision: 'retry', reason: 'x' })).status).toBe(422);
    const sketch = `sketch:${await writeDefinition(t, p, 'sketch', 'Rib')}`;
    expect((await unified(sketch, { decision: 'reject', reason: 'no' })).status).toBe(422);
    const change = `change:${await recordNode(t, p, 'design_change', 'Wider flange', { status: 'pending' })}`;
    expect((await unified(change, { decision: 'reject' })).status).toBe(422);
    expect((await legacy(change, { decision: 'reject', reason: '' })).status).toBe(422);
    expect((await t.http('GET', `/v1/runs/${run.id}`)).json.decisions).toEqual([]);
    for (const id of [tool, sketch, change]) expect((await item(id)).status).toBe('pending');
  });

  it('409 once retries and reworks are used up', async () => {
    const run = await startRun(t, project());
    for (let attempt = 1; attempt <= 3; attempt++) {
      await pendingGate(t, run.id, 'intent', attempt);
      expect((await unified(`gate:${run.id}`, { decision: 'retry', reason: `try ${attempt}` })).status).toBe(200);
    }
    const last = await pendingGate(t, run.id, 'intent', 4);
    expect(last.allowed_decisions).toEqual(['approve', 'reject']);
    for (const send of [unified, legacy]) {
      const r = await send(last.id, { decision: 'retry', reason: 'once more' });
      expect(r.status).toBe(409);
      expect(r.json.error.message).toMatch(/retries of intent are used up/);
    }
    expect((await legacy(last.id, { decision: 'approve' })).status).toBe(200);
    for (let cycle = 1; cycle <= 3; cycle++) {
      const needs = await pendingGate(t, run.id, 'needs');
      expect(needs.rework_targets).toEqual(['intent']);
      expect(
        (
          await (cycle % 2 ? unified : legacy)(needs.id, {
            decision: 'rework',
            reason: `cycle ${cycle}`,
            to_phase: 'intent',
          })
        ).status,
      ).toBe(200);
      await pendingGate(t, run.id, 'intent');
      expect((await unified(`gate:${run.id}`, { decision: 'approve' })).status).toBe(200);
    }
    const needs = await pendingGate(t, run.id, 'needs');
    expect(needs.allowed_decisions).not.toContain('rework');
    for (const send of [unified, legacy]) {
      const r = await send(needs.id, { decision: 'rework', reason: 'again', to_phase: 'intent' });
      expect(r.status).toBe(409);
      expect(r.json.error.message).toMatch(/reworks of needs are used up/);
    }
  });

  it("409 for approve and 200 for reject once the run's workflow no longer exists (decision saved, no run to signal)", async () => {
    for (const send of [unified, legacy]) {
      const run = await startRun(t, project(), { silent: ['intent'] });
      await pendingGate(t, run.id, 'intent', 1);
      expect((await send(`gate:${run.id}`, { decision: 'retry', reason: 'record it this time' })).status).toBe(200);
      // The same not-ready findings again: the stall stop (2 here) ends the run as a design failure at an open gate.
      await expect
        .poll(async () => (await t.http('GET', `/v1/runs/${run.id}`)).json.status, { timeout: 20_000 })
        .toBe('failed');
      const gone = await item(`gate:${run.id}`);
      expect(gone).toMatchObject({
        status: 'pending',
        allowed_decisions: ['reject'],
        decidable: true,
        detail: { workflow: 'gone', run_status: 'failed' },
      });
      expect(gone.findings).toEqual([expect.objectContaining({ kind: 'missing_deliverable' })]);
      const approve = await send(gone.id, { decision: 'approve' });
      expect(approve.status).toBe(409);
      expect(approve.json.error.message).toContain('no longer exists');
      const reject = await send(gone.id, { decision: 'reject', reason: 'abandoned' });
      expect(reject.status, JSON.stringify(reject.json)).toBe(200);
      expect(await item(gone.id)).toMatchObject({
        status: 'rejected',
        decision: { decision: 'reject', reason: 'abandoned' },
      });
      expect((await send(gone.id, { decision: 'reject', reason: 'again' })).status).toBe(409);
    }
  });

  it('409 patch conflict: the drafts were based on revisions that changed; nothing committed, the gate stays open', async () => {
    for (const send of [unified, legacy]) {
      const p = project();
      const run = await startRun(t, p);
      for (const phase of ['intent', 'needs']) {
        await pendingGate(t, run.id, phase);
        expect((await send(`gate:${run.id}`, { decision: 'approve' })).status).toBe(200);
      }
      await pendingGate(t, run.id, 'requirements');
      await okData(
        callTool(t.node.broker, 'twin.record_constraint_set', {
          project_id: p,
          name: 'Bracket limits',
          constraints: [{ metric: 'mass_kg', limit: 1.5, unit: 'kg' }],
        }),
      );
      const r = await send(`gate:${run.id}`, { decision: 'approve' });
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({
        code: 'PATCH_CONFLICT',
        message: expect.stringContaining('patch conflict'),
      });
      const still = await item(`gate:${run.id}`);
      expect(still).toMatchObject({
        status: 'pending',
        detail: { phase: 'requirements', conflict: expect.stringContaining('patch conflict') },
      });
    }
  });

  it('422 for a bad surface header and for an agent without on-behalf-of, on every route', async () => {
    const ids = await oneOfEach(project());
    for (const id of Object.values(ids)) {
      const body = rejectOrApprove(id.split(':')[0] as Kind);
      for (const send of [unified, legacy]) {
        const bad = await send(id, body, { 'x-service-surface': 'chat' });
        expect(bad.status, id).toBe(422);
        expect(bad.json.error.message).toContain('X-Service-Surface');
        const agent = await send(id, body, { 'x-service-surface': 'agent', 'x-service-agent': 'copilot' });
        expect(agent.status).toBe(422);
        expect(agent.json.error.message).toContain('On-Behalf-Of');
        expect((await send(id, body, { 'x-service-surface': 'cli', 'x-service-on-behalf-of': 'ann' })).status).toBe(
          422,
        );
      }
      expect((await item(id)).status).toBe('pending');
    }
  });

  it('403 when an agent decides a human-authority request or a design loop, on the unified and the older route', async () => {
    const p = project();
    const agent = { 'x-service-surface': 'agent', 'x-service-on-behalf-of': 'ann', 'x-service-agent': 'copilot' };
    const request = await fileRequest(t, p);
    const loop = `design_loop:${(await designLoop(t, p)).loop}`;
    for (const id of [request, loop]) {
      const seen = (await t.http('GET', `/v1/approvals/${id}`, undefined, agent)).json;
      expect(seen).toMatchObject({
        decidable: false,
        not_decidable_reason: expect.stringContaining('SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY'),
      });
      expect((await t.http('GET', `/v1/approvals/${id}`)).json.decidable).toBe(true);
      for (const send of [unified, legacy]) {
        const r = await send(id, { decision: 'approve' }, agent);
        expect(r.status).toBe(403);
        expect(r.json.error.code).toBe('FORBIDDEN');
      }
      expect((await item(id)).decision).toBeNull();
    }
    // Other kinds an agent may decide: the on-behalf-of person is the approver (unverified, auth off).
    const change = `change:${await recordNode(t, p, 'design_change', 'Chamfer', { status: 'pending' })}`;
    expect((await unified(change, { decision: 'approve' }, agent)).json.decision).toMatchObject({
      approver: 'ann',
      approver_verified: false,
      surface: 'agent',
      on_behalf_of: 'ann',
      agent: 'copilot',
    });
  });
});
