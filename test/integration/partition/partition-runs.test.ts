import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createNetns, netnsUnavailable, type CutKind, type Netns, type ServerLink } from '../../support/netns.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';
import { GateWatch, startBusClient, waitForRunsNodes } from '../../support/runs-client.ts';
import { TEST_SERVERS } from '../../support/servers.ts';
import { spawnService, type SpawnedService } from '../../support/spawn.ts';
import { checkLogs } from '../runs/reliability.checks.ts';
import { gone, runScenario } from '../runs/reliability.drive.ts';
import {
  linkStatus,
  ownedBy,
  pollHealth,
  untilOwnedByOthers,
  whyNotMoved,
  type HealthSeen,
} from './partition.probes.ts';

const servers = inject('servers');
const CI = process.env.CI === 'true';
/** Why a namespace cannot be made here; the suite is skipped for it only outside CI (under CI it fails). */
const unavailable = await netnsUnavailable();
if (unavailable && !CI) process.stderr.write(`partition tests skipped: ${unavailable}\n`);

const NODE_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../support/runs-node.ts');
// The actors /health probes live on every node, so a node is healthy before its cut and only the cut degrades it.
const ROLES = 'gateway,runs,gates,twin,tools,adapter:twin,projects,sessions,knowledge,memory';
const LEASE_MS = 5000;
/** The longest a cut is held while waiting for /health and the takeover, and the shortest any cut is held. */
const CUT_MS = 6 * LEASE_MS;
const MIN_CUT_MS = 3 * LEASE_MS;
const RUNS = 15;

const url = (u: string) => new URL(u);

/**
 * Issue 32 point 3. Three runs nodes on the real NATS server and PostgreSQL: two on this host, the third (the victim)
 * in a network namespace of its own, reaching both servers through forwarders on veth links. Midway through driving
 * the runs (the reliability test's driver and verdict), the victim is cut off from NATS, from PostgreSQL or from both,
 * by taking its links down (packets vanish) or by its forwarders holding every byte (nothing closes): silent, as a
 * real partition is. The cut is held three leases, longer while a PostgreSQL cut waits for the takeover, then healed.
 */
describe.runIf(servers.nats && servers.pg && (!unavailable || CI))('a runs node cut off by a network partition', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let client: BrokerHandle;
  let q: pg.Client;
  let netns: Netns;
  const watch = new GateWatch();
  const procs: SpawnedService[] = [];
  const tag = crypto.randomBytes(3).toString('hex');
  const ns = `part-${tag}`;
  const hosts = [`${ns}-n0`, `${ns}-n1`];

  const spawnNode = async (id: string, extra: Record<string, string> = {}, prefix: string[] = []) => {
    const p = spawnService(
      ['--roles', ROLES, '--port', '0'],
      { ...env, ...extra, SERVICE_NODE_ID: id, PGAPPNAME: id },
      NODE_BIN,
      prefix,
    );
    procs.push(p);
    const ready = await p.waitFor('mcp_http_ready', 90_000);
    return { p, port: Number(ready.port) };
  };

  beforeAll(async () => {
    if (unavailable) throw new Error(`CI=true and the partition tests cannot run: ${unavailable}`);
    db = await createTestDatabase();
    env = {
      SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
      SERVICE_DATABASE_URL: db.url,
      SERVICE_NAMESPACE: ns,
      SERVICE_NATS_HEARTBEAT_S: '1',
      SERVICE_NATS_HEARTBEAT_TIMEOUT_S: '3',
      SERVICE_RUN_LEASE_MS: String(LEASE_MS),
      SERVICE_LOG_LEVEL: 'warn',
    };
    const nats = url(TEST_SERVERS.natsUrl);
    const pgu = url(db.url);
    netns = await createNetns({
      nats: { host: nats.hostname, port: Number(nats.port || 4222) },
      pg: { host: pgu.hostname, port: Number(pgu.port || 5432) },
    });
    await Promise.all(hosts.map((id) => spawnNode(id)));
    client = await startBusClient(
      { ...env, SERVICE_NODE_ID: `${ns}-client`, SERVICE_REQUEST_TIMEOUT_MS: '2000' },
      watch,
    );
    q = new pg.Client({ connectionString: db.url });
    await q.connect();
  }, 180_000);

  afterAll(async () => {
    await q?.end().catch(() => undefined);
    await client?.stop();
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await netns?.destroy();
    await db?.drop();
  });

  /** Runs one partition: a fresh victim in the namespace, the runs driven, the cut, the heal, then the verdict. */
  async function partition(label: string, links: ServerLink[], kind: CutKind) {
    const victimId = `${ns}-v-${links.join('-')}-${kind}`;
    const { p: victim, port } = await spawnNode(victimId, netns.env(TEST_SERVERS.natsUrl, db.url), netns.prefix);
    const vurl = `http://${netns.ctlAddress}:${port}`;
    const nodes = [...hosts, victimId];
    await waitForRunsNodes(client.broker, nodes, 60_000);
    const healthyLinks = (h: HealthSeen['body']) =>
      h.status === 'healthy' && linkStatus(h, 'bus') === 'healthy' && linkStatus(h, 'database') === 'healthy';
    await pollHealth(vurl, healthyLinks, Date.now() + 60_000);

    let cutAt = 0;
    let healedAt = 0;
    let degraded: HealthSeen | undefined;
    let healthy: HealthSeen | undefined;
    let held = 0;
    let movedAll = false;
    let stuck = '';
    const r = await runScenario({
      tag: `${tag}-${links.join('-')}-${kind}`,
      runs: RUNS,
      bus: client.broker,
      watch,
      db: q,
      nodes,
      victim: 2,
      disruptAfter: 0.3,
      maxAttempts: 400,
      disrupt: async () => {
        held = await ownedBy(q, victimId);
        cutAt = Date.now();
        await netns.cut(links, kind);
        try {
          const cutLinks = links.map((l) => (l === 'nats' ? 'bus' : 'database'));
          degraded = await pollHealth(
            vurl,
            (h) => h.status === 'degraded' && cutLinks.every((l) => linkStatus(h, l) === 'unhealthy'),
            cutAt + CUT_MS,
          );
          if (links.includes('pg')) {
            movedAll = await untilOwnedByOthers(q, victimId, cutAt + CUT_MS);
            if (!movedAll) {
              stuck = await whyNotMoved(q, victimId);
              // Said now: a run left pinned may stall the driver past its deadline before the verdict is printed.
              process.stdout.write(`\npartition, ${label}: runs not taken over ${CUT_MS} ms into the cut: ${stuck}\n`);
            }
          }
          // Held at least three leases whatever happens, so the runs that moved are worked on by their new owners
          // while the victim is still cut off (its late writes then meet a newer epoch).
          await new Promise((res) => setTimeout(res, Math.max(0, cutAt + MIN_CUT_MS - Date.now())));
        } finally {
          healedAt = Date.now();
          await netns.heal();
        }
        healthy = await pollHealth(vurl, healthyLinks, Date.now() + 60_000);
      },
      // Everything the victim had in flight gets its chance after the heal; then it stops, and once its database
      // sessions are gone nothing of it can write: the logs read after this are final.
      settle: () => gone(q, victimId, victim.kill('SIGTERM')),
    });
    // The victim may write at any time it still holds a run (a NATS cut leaves it its leases; a write computed before a
    // PostgreSQL cut lands after the heal): what must hold is the fence, not silence. So the silent window is empty
    // (resumedAt = the cut) and the drafts are judged here, whoever wrote them.
    const report = checkLogs({ ...r.facts, killAt: new Date(cutAt), resumedAt: new Date(cutAt), openDrafts: [] });
    // The victim's own account of the writes its fence refused (appends under a lost epoch, phase results dropped).
    const refused = victim.lines.filter((l) => /fenced/i.test(String(l.msg)));
    process.stdout.write(
      `\npartition, ${label}: ${r.facts.runs.length} runs, ${r.decisions} decisions acknowledged, ${report.gateDecided} GateDecided; ` +
        `victim held ${held} unfinished runs at the cut\n` +
        `  /health degraded ${degraded!.at - cutAt} ms after the cut (${degraded!.body.detail ?? ''}); healthy again ${healthy!.at - healedAt} ms after the heal\n` +
        `  cut held ${healedAt - cutAt} ms; takeover (no unfinished run owned by the victim) ${Number.isNaN(r.takeoverMs) ? 'none within 20 s' : `${r.takeoverMs.toFixed(0)} ms`}; ` +
        `${report.deadRunsTakenOver} runs moved; writes refused: ${refused.length} fenced writes of the victim, ` +
        `${r.stats.retries} decision attempts refused or unanswered ${JSON.stringify(r.stats.byCode)}; ` +
        `${r.facts.openDrafts.length} drafts left open; decision latency worst ${r.latencies.at(-1)!.toFixed(0)} ms\n` +
        (stuck ? `  runs not taken over by the end of the cut: ${stuck}\n` : ''),
    );
    expect(report.problems, 'no run advanced twice, every fence held').toEqual([]);
    expect(r.facts.runs.filter((x) => x.status === 'completed')).toHaveLength(RUNS);
    expect(r.facts.openDrafts, 'no twin write of a fenced owner landed after the runs completed').toEqual([]);
    expect(degraded!.at - cutAt, 'the cut-off node says degraded within the lease').toBeLessThan(LEASE_MS);
    return { report, movedAll, held };
  }

  it('cut off from PostgreSQL (links down) mid-run: its runs move, its late writes are fenced, /health degrades', async () => {
    const { report, movedAll, held } = await partition('PostgreSQL, link down', ['pg'], 'link');
    if (held > 0) expect(movedAll, 'every run of the cut-off node was taken over while it was cut off').toBe(true);
    expect(report.problems).toEqual([]);
  }, 300_000);

  it('cut off from NATS (links down) mid-run: it keeps its leases, nothing is applied twice, /health degrades', async () => {
    await partition('NATS, link down', ['nats'], 'link');
  }, 300_000);

  it('cut off from both (forwarders hold every byte) mid-run: its runs move, nothing is applied twice', async () => {
    const { movedAll, held } = await partition('NATS and PostgreSQL, forwarders stalled', ['nats', 'pg'], 'stall');
    if (held > 0) expect(movedAll, 'every run of the cut-off node was taken over while it was cut off').toBe(true);
  }, 300_000);
});
