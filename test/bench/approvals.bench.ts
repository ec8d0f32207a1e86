// npm run bench:approvals — 10,000 pending approval items across kinds and 20 projects (seeded through the source
// tables, support/approvals-seed.ts) on PostgreSQL, served by a node in its own process (test/support/approvals-node.ts,
// the launcher's startNode). Prints: GET /v1/approvals?project_id= p50/p99 (target p50 < 30 ms) and without a filter;
// 1,000 concurrent decisions on distinct items across kinds (gates, ledger requests, design changes, sketches), all
// fired at once (target: all succeed, p99 < 100 ms).
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { APPROVAL_ROLES } from '../support/approvals.ts';
import { createTestDatabase } from '../support/pg.ts';
import { probeServers } from '../support/servers.ts';
import { spawnService } from '../support/spawn.ts';
import { PLAN, seedApprovals } from './support/approvals-seed.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NODE = path.join(HERE, '../support/approvals-node.ts');
const TIMER = path.join(HERE, 'support/http-timer.ts');
const LIST_RUNS = Number(process.env.BENCH_RUNS ?? 100);
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16);

interface Stats {
  p50: number;
  p99: number;
  max: number;
  n: number;
}
function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1], n: s.length };
}
const fmt = (s: Stats) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (n=${s.n})`;

/** Sequential GETs from a separate client process (support/http-timer.ts), so the client never shares the server's loop. */
async function timeGet(url: string, n: number): Promise<Stats & { bytes: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [TIMER, url, String(n), '5', '200'], { maxBuffer: 1 << 20 });
  const r = JSON.parse(stdout) as { ms: number[]; bytes: number };
  return { ...stats(r.ms), bytes: r.bytes };
}

async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const res = await fetch(url, init);
  return (await res.json()) as Record<string, any>;
}

const servers = await probeServers();
if (!servers.pg) {
  process.stderr.write('bench:approvals needs PostgreSQL at 127.0.0.1:5432 (TEST_PG_URL)\n');
  process.exit(1);
}
const db = await createTestDatabase('bench_approvals');
const node = spawnService(['--roles', APPROVAL_ROLES, '--port', '0'], { SERVICE_DATABASE_URL: db.url, SERVICE_LOG_LEVEL: 'warn', SERVICE_DB_POOL_MAX: '20' }, NODE);
try {
  const base = `http://127.0.0.1:${(await node.waitFor('mcp_http_ready', 60_000)).port}`;
  const template = await json(`${base}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ design_flow: 'mech_v1', project_id: 'bench-template', goal: 'a bracket' }) });
  for (let i = 0; (await json(`${base}/v1/approvals/gate:${template.id}`)).status !== 'pending'; i++) {
    if (i > 200) throw new Error('the template run never reached its first gate');
    await new Promise((r) => setTimeout(r, 50));
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const t0 = performance.now();
  const ids = await seedApprovals(c, template.id);
  await c.end();
  const total = PLAN.gates + PLAN.ledger + PLAN.changes + PLAN.loops + PLAN.sketches + PLAN.drawings;
  process.stdout.write(`seeded ${total} pending items (${JSON.stringify(PLAN)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

  const all = await json(`${base}/v1/approvals`);
  if (all.items.length < total) throw new Error(`the queue lists ${all.items.length} pending items, expected at least ${total}`);
  const scoped = await timeGet(`${base}/v1/approvals?project_id=bench-p07`, LIST_RUNS);
  process.stdout.write(`GET /v1/approvals?project_id=bench-p07 (${(scoped.bytes / 1024).toFixed(0)} KB per answer): ${fmt(scoped)}  [target p50 < 30 ms]\n`);
  const kind = await timeGet(`${base}/v1/approvals?project_id=bench-p07&kind=gate`, LIST_RUNS);
  process.stdout.write(`GET /v1/approvals?project_id=bench-p07&kind=gate: ${fmt(kind)}\n`);
  const unfiltered = await timeGet(`${base}/v1/approvals`, 10);
  process.stdout.write(`GET /v1/approvals (all ${all.items.length} pending, ${(unfiltered.bytes / 1024 / 1024).toFixed(1)} MB): ${fmt(unfiltered)}\n`);

  // 1,000 decisions on distinct items across kinds, all fired at once; then 1,000 more with a bounded number in flight.
  const per = Math.ceil(DECISIONS / 4);
  const batch = (from: number) =>
    [
      ...ids.gate.slice(from, from + per).map((id) => ({ id, body: { decision: 'reject', reason: 'bench' } })),
      ...ids.tool.slice(from, from + per).map((id) => ({ id, body: { decision: 'approve' } })),
      ...ids.change.slice(from, from + per).map((id) => ({ id, body: { decision: 'approve' } })),
      ...ids.sketch.slice(from, from + per).map((id) => ({ id, body: { decision: 'approve' } })),
    ].slice(0, DECISIONS);
  const decideOne = async (w: { id: string; body: unknown }) => {
    const s = performance.now();
    const res = await fetch(`${base}/v1/approvals/${w.id}/decision`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-surface': 'cli' }, body: JSON.stringify(w.body) });
    await res.arrayBuffer();
    return { ms: performance.now() - s, status: res.status, id: w.id };
  };
  const report = (label: string, results: { ms: number; status: number; id: string }[], wall: number) => {
    const failed = results.filter((r) => r.status !== 200);
    process.stdout.write(`${label}: ${results.length - failed.length}/${results.length} succeeded, ${fmt(stats(results.map((r) => r.ms)))}, wall ${wall.toFixed(0)} ms, ${((results.length / wall) * 1000).toFixed(0)} decisions/s\n`);
    if (failed.length) process.stdout.write(`  failed: ${failed.slice(0, 5).map((f) => `${f.id} ${f.status}`).join(', ')}\n`);
  };
  let started = performance.now();
  report(`${DECISIONS} decisions fired at once (${per} each of gates, ledger requests, design changes, sketches)  [target: all succeed, p99 < 100 ms]`, await Promise.all(batch(0).map(decideOne)), performance.now() - started);
  const work = batch(per);
  const done: { ms: number; status: number; id: string }[] = [];
  started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    for (let w = work.shift(); w; w = work.shift()) done.push(await decideOne(w));
  }));
  report(`${DECISIONS} more decisions on distinct items, ${IN_FLIGHT} in flight at a time`, done, performance.now() - started);
  process.stdout.write(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (${os.cpus().length} cores)\n`);
} finally {
  await node.kill();
  await db.drop();
}
