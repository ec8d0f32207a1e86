import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApprovalsInternal } from '../../../actors/approvals/index.ts';
import { call } from '../../../brokers/actions.ts';
import {
  APPROVAL_ROLES,
  pendingGate,
  startApprovalsNode,
  startRun,
  type ApprovalsNode,
} from '../../support/approvals.ts';
import { testClock } from '../../support/holds.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';
import { TEST_SERVERS } from '../../support/servers.ts';

const servers = inject('servers');
let db: TestDatabase;
let sql: pg.Client;
const started: ApprovalsNode[] = [];
beforeAll(async () => {
  if (!servers.pg || !servers.nats) return;
  db = await createTestDatabase();
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  for (const n of started.reverse()) await n.stop().catch(() => undefined);
  await sql?.end();
  await db?.drop();
});

const DASH = { 'x-service-surface': 'dashboard' };
/** Every role of the queue but the runs actor, which runs on a node of its own on the same bus. */
const WITHOUT_RUNS = APPROVAL_ROLES.split(',')
  .filter((r) => r !== 'runs')
  .join(',');

describe.runIf(servers.pg && servers.nats)(
  'a gate decision while the runs actor is down for 30 seconds (NATS, PostgreSQL, injected clock)',
  () => {
    it('is recorded with its outbox row, retried with backoff at the injected clock, and arrives exactly once when runs returns', async () => {
      const clock = testClock();
      const env = {
        SERVICE_DATABASE_URL: db.url,
        SERVICE_RUN_LEASE_MS: '500',
        SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
        SERVICE_NAMESPACE: `h1-${crypto.randomUUID().slice(0, 8)}`,
        SERVICE_NATS_HEARTBEAT_S: '1',
        SERVICE_NATS_HEARTBEAT_TIMEOUT_S: '3',
      };
      const start = async (roles: string) => {
        const n = await startApprovalsNode({ env, roles, clock });
        started.push(n);
        return n;
      };
      const queue = await start(WITHOUT_RUNS);
      const runsNode = await start('runs');
      const hasRuns = () => queue.node.broker.registry.getActionEndpoints('runs.decide')?.hasAvailable() ?? false;
      await expect.poll(hasRuns, { timeout: 15_000, interval: 50 }).toBe(true);
      const run = await startRun(queue, 'p-down');
      await pendingGate(queue, run.id, 'intent');

      await runsNode.stop();
      await expect.poll(hasRuns, { timeout: 15_000, interval: 50 }).toBe(false);
      const sent = await queue.http(
        'POST',
        `/v1/approvals/gate:${run.id}/decision`,
        { decision: 'approve', reason: 'ship it' },
        DASH,
      );
      expect(sent.status).toBe(503);
      expect(sent.json.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { recorded: true } });
      const outbox = async () =>
        (
          await sql.query<{ key: string; effect: string; attempts: number }>(
            'SELECT key, effect, attempts FROM approval_outbox',
          )
        ).rows;
      expect(await outbox()).toEqual([expect.objectContaining({ effect: 'runs.decide' })]);

      // 30 seconds of the injected clock, a deliverer pass every second: every pass finds it waiting, and the backoff
      // (1, 2, 4, 8, 16 s) makes it try far fewer times than it is asked to.
      for (let s = 0; s < 30; s++) {
        clock.advance(1);
        expect(await call(queue.node.broker, ApprovalsInternal.deliver, {})).toMatchObject({
          delivered: 0,
          waiting: 1,
        });
      }
      const [waiting] = await outbox();
      expect(waiting.attempts).toBeGreaterThanOrEqual(3);
      expect(waiting.attempts).toBeLessThan(10);
      expect((await queue.http('GET', `/v1/approvals/gate:${run.id}`)).json).toMatchObject({
        status: 'pending',
        decidable: false,
        decision: { decision: 'approve', reason: 'ship it' },
      });

      await start('runs');
      await expect
        .poll(async () => (await queue.http('GET', `/v1/runs/${run.id}`)).json.decisions?.length ?? 0, {
          timeout: 20_000,
          interval: 100,
        })
        .toBe(1);
      expect(await outbox()).toEqual([]);
      expect(await call(queue.node.broker, ApprovalsInternal.deliver, {})).toMatchObject({ delivered: 0, waiting: 0 });
      const after = (await queue.http('GET', `/v1/runs/${run.id}`)).json;
      expect(after.decisions).toEqual([
        expect.objectContaining({
          phase: 'intent',
          decision: 'approve',
          reason: 'ship it',
          approver: 'local:dashboard',
          surface: 'dashboard',
        }),
      ]);
      expect(
        (
          await sql.query("SELECT count(*)::int AS n FROM run_events WHERE run_id = $1 AND type = 'GateDecided'", [
            run.id,
          ])
        ).rows[0].n,
      ).toBe(1);
    });
  },
);
