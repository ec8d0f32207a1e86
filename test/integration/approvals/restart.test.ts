import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ApprovalsInternal } from '../../../actors/approvals/index.ts';
import {
  APPROVAL_ROLES,
  designLoop,
  fileRequest,
  pendingGate,
  recordNode,
  startApprovalsNode,
  startRun,
  writeDefinition,
} from '../../support/approvals.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';

type Json = Record<string, any>;
const pg = inject('servers').pg;
let db: TestDatabase;
beforeAll(async () => {
  if (pg) db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const DASH = { 'x-service-surface': 'dashboard' };
const env = () => ({ SERVICE_DATABASE_URL: db.url, SERVICE_RUN_LEASE_MS: '500' });
/** The same roles without the runs actor: the queue still reads the runs projection, decisions cannot be delivered. */
const WITHOUT_RUNS = APPROVAL_ROLES.split(',')
  .filter((r) => r !== 'runs')
  .join(',');

describe.skipIf(!pg)('approval decisions across restarts (PostgreSQL)', () => {
  it('keeps every kind of decision where the spec persists it, records a gate decision the runs actor cannot take (503) and delivers it once it is back', async () => {
    const a = await startApprovalsNode({ env: env() });
    const p = 'p-restart';
    const run = await startRun(a, p);
    await pendingGate(a, run.id, 'intent');
    const waiting = await startRun(a, p);
    await pendingGate(a, waiting.id, 'intent');
    const legacyWaiting = await startRun(a, p);
    await pendingGate(a, legacyWaiting.id, 'intent');
    const ids = [
      `gate:${run.id}`,
      await fileRequest(a, p),
      `change:${await recordNode(a, p, 'design_change', 'Add rib', { status: 'pending' })}`,
      `design_loop:${(await designLoop(a, p)).loop}`,
      `sketch:${await writeDefinition(a, p, 'sketch', 'Rib profile')}`,
      `drawing:${await writeDefinition(a, p, 'technical_drawing', 'Rib drawing')}`,
    ];
    const before: Record<string, Json> = {};
    for (const id of ids) {
      const body =
        id.startsWith('gate:') || id.startsWith('tool:') || id.startsWith('change:')
          ? { decision: 'reject', reason: `no: ${id}` }
          : { decision: 'approve', reason: 'good' };
      const r = await a.http('POST', `/v1/approvals/${id}/decision`, body, DASH);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      before[id] = r.json;
    }
    await a.stop();

    const b = await startApprovalsNode({ env: env(), roles: WITHOUT_RUNS });
    for (const id of ids) {
      const now = (await b.http('GET', `/v1/approvals/${id}`)).json;
      expect(now.status, id).toBe(before[id].status);
      expect(now.decision, id).toEqual(before[id].decision);
      expect(now.decision).toMatchObject({
        approver: 'local:dashboard',
        approver_verified: false,
        surface: 'dashboard',
      });
    }
    const recorded = await b.http(
      'POST',
      `/v1/approvals/gate:${waiting.id}/decision`,
      { decision: 'approve', reason: 'ship it' },
      DASH,
    );
    expect(recorded.status).toBe(503);
    expect(recorded.json.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('recorded but could not be delivered'),
      details: { recorded: true },
    });
    const held = (await b.http('GET', `/v1/approvals/gate:${waiting.id}`)).json;
    expect(held).toMatchObject({
      status: 'pending',
      decidable: false,
      allowed_decisions: [],
      decision: { decision: 'approve', reason: 'ship it', surface: 'dashboard' },
    });
    expect(
      (
        await b.http(
          'POST',
          `/v1/approvals/gate:${waiting.id}/decision`,
          { decision: 'reject', reason: 'changed my mind' },
          DASH,
        )
      ).status,
    ).toBe(409);
    expect((await b.http('POST', `/v1/runs/${legacyWaiting.id}/approval`, { decision: 'approve' })).status).toBe(503);
    expect(await call(b.node.broker, ApprovalsInternal.deliver, {})).toMatchObject({ delivered: 0, waiting: 2 });
    await b.stop();

    const c = await startApprovalsNode({ env: env() });
    await expect
      .poll(
        async () =>
          (await call(c.node.broker, ApprovalsInternal.deliver, {})).waiting === 0 &&
          (await c.http('GET', `/v1/runs/${legacyWaiting.id}`)).json.decisions?.length === 1,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    const delivered = (await c.http('GET', `/v1/runs/${waiting.id}`)).json;
    expect(delivered.decisions).toEqual([
      expect.objectContaining({
        decision: 'approve',
        reason: 'ship it',
        approver: 'local:dashboard',
        surface: 'dashboard',
        phase: 'intent',
      }),
    ]);
    expect((await c.http('GET', `/v1/runs/${legacyWaiting.id}`)).json.decisions[0]).toMatchObject({
      decision: 'approve',
      surface: 'unknown',
    });
    await pendingGate(c, waiting.id, 'needs');
    for (const id of ids)
      expect((await c.http('GET', `/v1/approvals/${id}`)).json.decision, id).toEqual(before[id].decision);
    await c.stop();
  });
});
