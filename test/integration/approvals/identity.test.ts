import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fileRequest,
  pendingGate,
  recordNode,
  startApprovalsNode,
  startRun,
  type ApprovalsNode,
} from '../../support/approvals.ts';
import { realDbEnv } from '../../support/tools.ts';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef';
let t: ApprovalsNode;
let drop: () => Promise<void>;
let dir: string;
beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'approvals-auth-'));
  const file = path.join(dir, 'tokens.json');
  fs.writeFileSync(file, JSON.stringify({ [ALICE]: 'alice@example.com', [BOB]: 'bob@example.com' }), { mode: 0o600 });
  t = await startApprovalsNode({
    env: { ...db.env, SERVICE_AUTH_TOKENS_PATH: file, SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY: 'true' },
  });
});
afterAll(async () => {
  await t.stop();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const as = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
const agentOf = (token: string, obo: string) =>
  as(token, { 'x-service-surface': 'agent', 'x-service-on-behalf-of': obo, 'x-service-agent': 'copilot' });
const change = (p: string, name: string) =>
  recordNode(t, p, 'design_change', name, { status: 'pending' }).then((id) => `change:${id}`);

describe('gateway authentication on (SERVICE_AUTH_TOKENS_PATH)', () => {
  it('answers 401 without a token or with a wrong one, on reads and decisions of every approval route', async () => {
    const id = await change('p-auth', 'Needs a token');
    for (const [method, p, body] of [
      ['GET', '/v1/approvals', undefined],
      ['GET', `/v1/approvals/${id}`, undefined],
      ['POST', `/v1/approvals/${id}/decision`, { decision: 'approve' }],
      [
        'POST',
        `/v1/assistant/proposals/${id.slice(7)}/decide`,
        { change_id: id.slice(7), decision: 'approve', reason: 'ok', reviewer: 'x' },
      ],
      ['GET', '/v1/chat/tool_approvals', undefined],
    ] as const) {
      const missing = await t.http(method, p, body);
      expect(missing.status, p).toBe(401);
      expect(missing.json.error).toMatchObject({ code: 'AUTH_REQUIRED', details: { reason: 'missing_key' } });
      const wrong = await t.http(method, p, body, as('not-a-known-token-at-all'));
      expect(wrong.status).toBe(401);
      expect(wrong.json.error.details.reason).toBe('mismatch');
    }
    expect((await t.http('GET', `/v1/approvals/${id}`, undefined, as(ALICE))).json.decision).toBeNull();
  });

  it('records the authenticated principal as the verified approver, never a body field; an older route records surface unknown', async () => {
    const a = await change('p-auth', 'Verified by alice');
    const r = await t.http(
      'POST',
      `/v1/approvals/${a}/decision`,
      { decision: 'approve', reviewer: 'mallory', approved_by: 'mallory', approvedBy: 'mallory' },
      as(ALICE, { 'x-service-surface': 'dashboard' }),
    );
    expect(r.status).toBe(200);
    expect(r.json.decision).toMatchObject({
      approver: 'alice@example.com',
      approver_verified: true,
      surface: 'dashboard',
      on_behalf_of: null,
      agent: null,
    });
    const b = await change('p-auth', 'Verified by bob');
    const old = await t.http(
      'POST',
      `/v1/assistant/proposals/${b.slice(7)}/decide`,
      { change_id: b.slice(7), decision: 'reject', reason: 'too heavy', reviewer: 'mallory' },
      as(BOB, { 'x-service-surface': 'cli' }),
    );
    expect(old.status).toBe(200);
    expect(old.json.decision).toMatchObject({
      decision: 'reject',
      approver: 'bob@example.com',
      approver_verified: true,
      surface: 'unknown',
      reason: 'too heavy',
    });
  });

  it('lets an agent act only for its own principal: on-behalf-of must match (403 otherwise); human authority allowed by the deployment', async () => {
    const c = await change('p-auth', 'Agent change');
    const mismatch = await t.http(
      'POST',
      `/v1/approvals/${c}/decision`,
      { decision: 'approve' },
      agentOf(ALICE, 'bob@example.com'),
    );
    expect(mismatch.status).toBe(403);
    expect(mismatch.json.error.message).toContain('is not the authenticated principal');
    const native = c.slice('change:'.length);
    const older = await t.http(
      'POST',
      `/v1/assistant/proposals/${native}/decide`,
      { change_id: native, decision: 'approve', reason: 'ok', reviewer: 'bob@example.com' },
      agentOf(ALICE, 'bob@example.com'),
    );
    expect(older.status).toBe(403);
    expect((await t.http('GET', `/v1/approvals/${c}`, undefined, as(ALICE))).json.decision).toBeNull();
    const ok = await t.http(
      'POST',
      `/v1/approvals/${c}/decision`,
      { decision: 'approve' },
      agentOf(ALICE, 'alice@example.com'),
    );
    expect(ok.json.decision).toMatchObject({
      approver: 'alice@example.com',
      approver_verified: true,
      surface: 'agent',
      on_behalf_of: 'alice@example.com',
      agent: 'copilot',
    });
    const request = await fileRequest(t, 'p-auth');
    expect(
      (await t.http('GET', `/v1/approvals/${request}`, undefined, agentOf(BOB, 'bob@example.com'))).json.decidable,
    ).toBe(true);
    expect(
      (
        await t.http(
          'POST',
          `/v1/approvals/${request}/decision`,
          { decision: 'approve' },
          agentOf(BOB, 'bob@example.com'),
        )
      ).status,
    ).toBe(200);
  });

  it('answers 401 to an inline gate decision without a token, like every other approval route (ISSUE 27 #3)', async () => {
    const run = await startRun(t, 'p-inline-401');
    await pendingGate(t, run.id, 'intent', undefined, as(ALICE));
    const r = await t.http(
      'POST',
      `/v1/approvals/gate:${run.id}/inline-decision`,
      { decision: 'approve', reason: 'no token', approver: 'mallory', approver_verified: true },
      { 'x-service-surface': 'dashboard' },
    );
    expect(r.status, JSON.stringify(r.json)).toBe(401);
    expect(r.json.error).toMatchObject({ code: 'AUTH_REQUIRED', details: { reason: 'missing_key' } });
    const gate = (await t.http('GET', `/v1/approvals/gate:${run.id}`, undefined, as(ALICE))).json;
    expect(gate).toMatchObject({ status: 'pending', decision: null });
    expect((await t.http('GET', `/v1/runs/${run.id}`)).json.decisions).toEqual([]);
    const ok = await t.http(
      'POST',
      `/v1/approvals/gate:${run.id}/inline-decision`,
      { decision: 'approve', reason: 'with a token' },
      as(ALICE),
    );
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json.decision).toMatchObject({ approver: 'alice@example.com', approver_verified: true });
  });

  it('verifies an inline gate decision by its own authentication; the form never names the approver', async () => {
    {
      const [headers, approver, verified] = [as(ALICE), 'alice@example.com', true] as const;
      const run = await startRun(t, 'p-inline');
      await pendingGate(t, run.id, 'intent', undefined, as(ALICE));
      const r = await t.http(
        'POST',
        `/v1/approvals/gate:${run.id}/inline-decision`,
        { decision: 'approve', reason: 'said yes in the chat', approver: 'mallory', approver_verified: true },
        { ...headers, 'x-service-surface': 'dashboard' },
      );
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      const d = (await t.http('GET', `/v1/runs/${run.id}`)).json.decisions[0];
      expect(d).toMatchObject({
        decision: 'approve',
        approver,
        approver_verified: verified,
        surface: 'chat',
        reason: 'said yes in the chat',
      });
    }
    const run = await startRun(t, 'p-inline');
    await pendingGate(t, run.id, 'intent', undefined, as(ALICE));
    expect(
      (
        await t.http(
          'POST',
          `/v1/approvals/gate:${run.id}/inline-decision`,
          { decision: 'approve' },
          as('wrong-token-0123456789abcdef'),
        )
      ).status,
    ).toBe(401);
    const notGate = await t.http(
      'POST',
      `/v1/approvals/${await change('p-inline', 'x')}/inline-decision`,
      { decision: 'approve' },
      as(ALICE),
    );
    expect(notGate.status).toBe(422);
    expect(notGate.json.error.message).toContain('gates only');
  });

  it('counts every decision by kind, decision, surface and outcome', async () => {
    const c = await change('p-metrics', 'Counted');
    await t.http(
      'POST',
      `/v1/approvals/${c}/decision`,
      { decision: 'approve' },
      as(ALICE, { 'x-service-surface': 'cli' }),
    );
    await t.http(
      'POST',
      `/v1/approvals/${c}/decision`,
      { decision: 'approve' },
      as(ALICE, { 'x-service-surface': 'cli' }),
    );
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const value = (labels: string) =>
      Number(new RegExp(`service_approval_decision_total\\{${labels}\\} (\\d+)`).exec(text)?.[1] ?? 0);
    expect(value('kind="design_change",decision="approve",surface="cli",outcome="ok"')).toBeGreaterThanOrEqual(1);
    expect(value('kind="design_change",decision="approve",surface="cli",outcome="refused"')).toBeGreaterThanOrEqual(1);
  });
});
