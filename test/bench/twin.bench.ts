// npm run bench:twin — a project of 10,000 items and 100,000 revisions (bulk-inserted through the twin tables), then:
// GET /v1/twin/current-view p50 (target < 50 ms), committing a 200-item change set through TwinActions.commitChangeSet
// (target < 200 ms), twin.item_history of an item with 1,000 revisions, and GET /v1/simulation/results/{id}/field
// serving a 1.5 MB payload (bytes out equal bytes stored). On the embedded PGlite, then on PostgreSQL when it is up.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ServiceBroker } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import { TwinActions as T } from '../../contracts/actions/twin.actions.ts';
import { rawGet } from '../support/http-raw.ts';
import { startTestNode } from '../support/node.ts';
import { createTestDatabase } from '../support/pg.ts';
import { probeServers } from '../support/servers.ts';
import { seedTwin, simFieldPayloadOf, type SeededTwin } from './support/twin-seed.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const TIMER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/http-timer.ts');
const COMMITS = Number(process.env.BENCH_COMMITS ?? 5);

interface Stats {
  p50: number;
  p90: number;
  min: number;
  max: number;
  n: number;
}
function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p90: at(0.9), min: s[0], max: s[s.length - 1], n: s.length };
}
async function time(n: number, fn: () => Promise<void>, warmUp = 3): Promise<Stats> {
  for (let i = 0; i < warmUp; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return stats(ms);
}
/** Times sequential GETs from a separate client process (support/http-timer.ts), checking status and body hash. */
async function timeHttp(
  url: string,
  n: number,
  opts: { status?: number; sha256?: string; ifNoneMatch?: string } = {},
): Promise<Stats & { bytes: number }> {
  const args = [TIMER, url, String(n), '3', String(opts.status ?? 200), opts.sha256 ?? '', opts.ifNoneMatch ?? ''];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 });
  const r = JSON.parse(stdout) as { ms: number[]; bytes: number };
  return { ...stats(r.ms), bytes: r.bytes };
}
const fmt = (s: Stats) =>
  `p50 ${s.p50.toFixed(1)} ms, p90 ${s.p90.toFixed(1)}, min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)} (n=${s.n})`;

/** Runs a tool through the registry's dispatch path as a local (stdio) caller, as an MCP call would. */
async function tool(broker: ServiceBroker, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const o = await call(broker, ToolsActions.call, {
    name,
    arguments: args,
    call_id: `b-${crypto.randomUUID()}`,
    caller: { kind: 'stdio', transport: 'stdio' },
  });
  if (o.status !== 'success') throw new Error(`${name} failed: ${JSON.stringify(o)}`);
  return o.data as Record<string, any>;
}

/** 200 drafts of distinct items in one run, then the timed commit; a fresh slice of items each round. */
async function commitRounds(broker: ServiceBroker, project: string, seeded: SeededTwin): Promise<Stats> {
  const ms: number[] = [];
  for (let round = 0; round < COMMITS; round++) {
    const run = `bench-run-${round}-${crypto.randomUUID().slice(0, 8)}`;
    for (const it of seeded.keys.slice(round * 200, round * 200 + 200)) {
      await call(broker, T.writeDefinition, {
        project_id: project,
        item_type: it.item_type,
        name: it.name,
        item_key: it.key,
        properties: { round },
        writer: { run_id: run },
      });
    }
    const t0 = performance.now();
    const r = await call(broker, T.commitChangeSet, {
      run_id: run,
      project_id: project,
      gate_id: `${run}:g`,
      gate_name: 'Bench',
      approver: 'bench',
    });
    ms.push(performance.now() - t0);
    if (r.status !== 'committed' || r.committed.length !== 200)
      throw new Error(`commit round ${round}: ${JSON.stringify(r).slice(0, 300)}`);
  }
  return stats(ms);
}

async function benchBackend(label: string, env: Record<string, string>, field: Buffer): Promise<void> {
  const t = await startTestNode({ env: { ...env, SERVICE_LOG_LEVEL: 'error' } });
  try {
    const { broker } = t.node;
    const project = (
      (await (
        await fetch(`${t.url}/v1/projects`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'bench twin' }),
        })
      ).json()) as { id: string }
    ).id;
    const seeded = await seedTwin(await t.node.infra.db(), project);
    process.stdout.write(
      `\n== ${label}: seeded ${seeded.items} items, ${seeded.revisions} revisions, ${seeded.edges} edges in ${(seeded.ms / 1000).toFixed(1)} s\n`,
    );

    const view = await timeHttp(`${t.url}/v1/twin/current-view?project_id=${project}`, RUNS);
    process.stdout.write(
      `GET /v1/twin/current-view (10,000 heads, ${(view.bytes / 1e6).toFixed(2)} MB JSON): ${fmt(view)}  target p50 < 50 ms\n`,
    );

    const commit = await commitRounds(broker, project, seeded);
    process.stdout.write(
      `commitChangeSet, 200 drafts + gate baseline of 10,000 items: ${fmt(commit)}  target < 200 ms\n`,
    );

    const hist = await time(Math.min(RUNS, 30), async () => {
      const h = await tool(broker, 'twin.item_history', { item_key: seeded.deepKey });
      if (h.revisions.length !== 1000) throw new Error(`item_history gave ${h.revisions.length} revisions`);
    });
    process.stdout.write(`twin.item_history, 1,000 revisions (tool dispatch): ${fmt(hist)}\n`);
    const histHttp = await timeHttp(`${t.url}/v1/twin/items/${seeded.deepKey}/revisions`, Math.min(RUNS, 30));
    process.stdout.write(`GET /v1/twin/items/{key}/revisions, 1,000 revisions: ${fmt(histHttp)}\n`);

    const r = await tool(broker, 'twin.record_document', {
      project_id: project,
      document_type: 'simulation_result',
      name: 'bench field',
      field_base64: field.toString('base64'),
    });
    const want = crypto.createHash('sha256').update(field).digest('hex');
    if (r.field_content_hash !== want) throw new Error('stored field hash differs from the payload');
    const url = `${t.url}/v1/simulation/results/${r.node_id}/field`;
    const first = await rawGet(url);
    if (first.headers['content-encoding'] !== 'gzip' || first.headers.etag !== `"${want}"`)
      throw new Error(`field headers: ${JSON.stringify(first.headers)}`);
    const served = await timeHttp(url, Math.min(RUNS, 30), { sha256: want });
    process.stdout.write(
      `GET /v1/simulation/results/{id}/field, ${(field.length / 1e6).toFixed(2)} MB gzip, bytes out == bytes stored: ${fmt(served)}\n`,
    );
    const revalidate = await timeHttp(url, Math.min(RUNS, 30), { status: 304, ifNoneMatch: `"${want}"` });
    process.stdout.write(`same, If-None-Match -> 304: ${fmt(revalidate)}\n`);
  } finally {
    await t.stop();
  }
}

const field = simFieldPayloadOf(1_500_000);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
process.stdout.write(
  `bench:twin  ${os.availableParallelism()} cores, Node ${process.version}, load ${load()}; ${RUNS} timed requests per read after 3 warm-up (from a client process), ${COMMITS} commits\n`,
);
await benchBackend('embedded PGlite (in memory)', {}, field);
if ((await probeServers()).pg) {
  const db = await createTestDatabase('bench');
  try {
    await benchBackend('PostgreSQL', { SERVICE_DATABASE_URL: db.url }, field);
  } finally {
    await db.drop();
  }
} else process.stdout.write('\nPostgreSQL is not reachable on 127.0.0.1:5432: its half of the bench is skipped\n');
process.stdout.write(`\nload average at the end: ${load()}\n`);
