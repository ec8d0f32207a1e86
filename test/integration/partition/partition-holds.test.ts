import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { createBroker, type BrokerHandle } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { createProject, DASHBOARD, decisionsOf } from '../../support/holds.ts';
import { rawMcp } from '../../support/mcp-raw.ts';
import { createNetns, netnsUnavailable, type Netns } from '../../support/netns.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';
import { natsClusterEnv, TEST_SERVERS } from '../../support/servers.ts';
import { spawnService, type SpawnedService } from '../../support/spawn.ts';
import { linkStatus, pollHealth } from './partition.probes.ts';

const servers = inject('servers');
const CI = process.env.CI === 'true';
const unavailable = await netnsUnavailable();
if (unavailable && !CI) process.stderr.write(`partition tests skipped: ${unavailable}\n`);

/** Longer than the heartbeat timeout (3 s): the rest of the cluster sees the cut-off gateway leave the bus. */
const CUT_MS = 10_000;

/**
 * Issue 32 point 3, held calls: an MCP client's held write waits on a gateway in a network namespace of its own (the
 * client reaches it on a link that is never cut); the holds actor, the registry and the twin run on this host. The
 * gateway is cut off from NATS (its link down: silent) for longer than the heartbeat timeout, then healed; the held
 * call is then approved. It must not be lost: the client gets the tool's result, and the write runs exactly once.
 */
describe.runIf(servers.nats && servers.pg && (!unavailable || CI))('a held call whose gateway is cut off', () => {
  let db: TestDatabase;
  let netns: Netns;
  let bus: BrokerHandle;
  let env: Record<string, string>;
  const procs: SpawnedService[] = [];

  beforeAll(async () => {
    if (unavailable) throw new Error(`CI=true and the partition tests cannot run: ${unavailable}`);
    db = await createTestDatabase();
    env = { ...natsClusterEnv(), SERVICE_DATABASE_URL: db.url };
    const nats = new URL(TEST_SERVERS.natsUrl);
    const pgu = new URL(db.url);
    netns = await createNetns({
      nats: { host: nats.hostname, port: Number(nats.port || 4222) },
      pg: { host: pgu.hostname, port: Number(pgu.port || 5432) },
    });
    const config = loadConfig({ ...env, SERVICE_NODE_ID: `${env.SERVICE_NAMESPACE}-decider` });
    bus = createBroker({
      roles: [],
      transporter: config.SERVICE_TRANSPORTER,
      config,
      log: createRootLogger({ level: 'error', toStderr: true }),
    });
    await bus.broker.start();
  }, 120_000);

  afterAll(async () => {
    await bus?.stop();
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await netns?.destroy();
    await db?.drop();
  });

  // Known defect, issue 32 points 1 and 7 (open): the holds actor orphans the holds of a gateway that leaves the bus,
  // so a 10 s NATS partition fails the hold ("orphaned by a restart") and the approval after the heal is refused.
  // `it.fails` keeps the finding in CI: the day holds move with their lease in the database, this fails and is flipped.
  it.fails(
    'approved after the partition healed, the held call answers its client once with the result',
    async () => {
      const actors = spawnService(['--roles', 'tools,holds,projects,twin,adapter:twin', '--port', '0'], env);
      procs.push(actors);
      await actors.waitFor('node_ready', 90_000);
      const gw = spawnService(
        ['--roles', 'gateway', '--port', '0'],
        { ...env, ...netns.env(TEST_SERVERS.natsUrl, db.url) },
        undefined,
        netns.prefix,
      );
      procs.push(gw);
      const url = `http://${netns.ctlAddress}:${Number((await gw.waitFor('mcp_http_ready', 90_000)).port)}`;
      await bus.broker.waitForServices(['holds', 'twin', 'tools'], 60_000);
      await pollHealth(url, (h) => linkStatus(h, 'bus') === 'healthy', Date.now() + 60_000);
      // The gateway finds the projects actor once discovery ran: until then the create is a 503 (no id).
      const project = await vi.waitFor(
        async () => {
          const id = await createProject(url, 'held across a partition');
          if (!id) throw new Error('the project was not created');
          return id;
        },
        { timeout: 60_000, interval: 500 },
      );

      const { sessionId } = await rawMcp(url).initialize();
      const answer = fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'twin.record_decision',
            arguments: { project_id: project, title: 'Weld it', decision: 'go' },
          },
        }),
      }).then(async (r) => (await r.json()) as { result?: { isError?: boolean }; error?: unknown });
      const pending = async () =>
        (await call(bus.broker, HoldsActions.list, { status: 'all' })).records.filter((r) => r.project_id === project);
      await expect
        .poll(async () => (await pending()).map((r) => r.status), { timeout: 30_000 })
        .toEqual(['awaiting_approval']);
      const rec = (await pending())[0];

      const cutAt = Date.now();
      await netns.cut(['nats'], 'link');
      const degraded = await pollHealth(url, (h) => linkStatus(h, 'bus') === 'unhealthy', cutAt + CUT_MS);
      await new Promise((r) => setTimeout(r, Math.max(0, cutAt + CUT_MS - Date.now())));
      const during = (await call(bus.broker, HoldsActions.get, { id: rec.id })).status;
      const healedAt = Date.now();
      await netns.heal();
      const healthy = await pollHealth(url, (h) => linkStatus(h, 'bus') === 'healthy', Date.now() + 60_000);
      const decided = await call(bus.broker, HoldsActions.decide, {
        id: rec.id,
        decision: 'approve',
        reason: 'after the partition',
        decider: DASHBOARD,
      }).then(
        () => 'applied',
        (err: unknown) => `refused: ${(err as Error).message}`,
      );
      const out = await Promise.race([
        answer,
        new Promise((r) => setTimeout(() => r('no answer within 60 s'), 60_000)),
      ]);
      process.stdout.write(
        `\npartition, held call, gateway cut off from NATS for ${healedAt - cutAt} ms: /health degraded ${degraded.at - cutAt} ms after the cut, ` +
          `healthy ${healthy.at - healedAt} ms after the heal; the hold read "${during}" at the end of the cut; ` +
          `the approval after the heal ${decided}; the client got ${JSON.stringify(out).slice(0, 300)}\n`,
      );
      expect(degraded.at - cutAt, 'the cut-off gateway says degraded within the lease (5 s)').toBeLessThan(5000);
      expect(decided, 'the held call can still be approved once the partition healed').toBe('applied');
      expect(out, 'the client gets the result of its held call').toMatchObject({ result: {} });
      expect((out as { result: { isError?: boolean } }).result.isError).toBeFalsy();
      expect(await decisionsOf(url, project), 'the held write ran exactly once').toEqual(['Weld it']);
    },
    300_000,
  );
});
