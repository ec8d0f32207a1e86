// npm run bench:approvals — 10,000 pending approval items across kinds and 20 projects (seeded through the source
// tables, support/approvals-seed.ts) on PostgreSQL, served by a node in its own process (test/support/approvals-node.ts,
// the launcher's startNode). Prints: GET /v1/approvals?project_id= p50/p99 (target p50 < 30 ms) and without a filter;
// after an untimed warm-up, 1,000 decisions on distinct items across kinds (gates, ledger requests, design changes,
// sketches) all sent at once (target: all succeed, p99 < 100 ms), then 1,000 with 16 and 1,000 with 64 in flight.
// Each round is sent first to a bare node:http server by the same client process (support/burst.ts), so the figures
// carry the machine's own floor for that many requests and the ratio of the service to it, and to a bare node:http
// server making one PostgreSQL UPDATE per request (support/bare-write-server.ts): the floor for a request that records
// anything on this machine.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
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
import { startChildServer } from './support/mcp-load.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NODE = path.join(HERE, '../support/approvals-node.ts');
const TIMER = path.join(HERE, 'support/http-timer.ts');
const BURST = path.join(HERE, 'support/burst.ts');
const LIST_RUNS = Number(process.env.BENCH_RUNS ?? 100);
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16);
const PROF = process.env.BENCH_CPU_PROF; // a folder: the node writes a V8 CPU profile there when it stops

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
const fmt = (s: Stats) =>
  `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (n=${s.n})`;

/** Sequential GETs from a separate client process (support/http-timer.ts), so the client never shares the server's loop. */
async function timeGet(url: string, n: number): Promise<Stats & { bytes: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [TIMER, url, String(n), '5', '200'], {
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(stdout) as { ms: number[]; bytes: number };
  return { ...stats(r.ms), bytes: r.bytes };
}

/** Sends `work` from a separate client process (support/burst.ts): all at once (`all`) or with `mode` requests in flight. */
async function burst(
  url: string,
  work: { path: string; body: unknown }[],
  mode: string,
): Promise<{ ms: number[]; status: number[]; span: number }> {
  const file = path.join(os.tmpdir(), `bench-approvals-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(work));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    // The warm-up GET is an unknown API path (a small JSON 404): any other path is the dashboard's index.html, read
    // from disk for each of up to 1,000 sockets, whose file handles would still be closing in the timed window.
    [BURST, url, file, mode, '/v1/warm-up', JSON.stringify({ 'x-service-surface': 'cli' })],
    { maxBuffer: 1 << 24 },
  );
  fs.rmSync(file, { force: true });
  return JSON.parse(stdout) as { ms: number[]; status: number[]; span: number };
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
const node = spawnService(
  ['--roles', APPROVAL_ROLES, '--port', '0'],
  {
    SERVICE_DATABASE_URL: db.url,
    SERVICE_LOG_LEVEL: 'warn',
    SERVICE_DB_POOL_MAX: '20',
    ...(PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROF}` } : {}),
  },
  NODE,
);
try {
  const base = `http://127.0.0.1:${(await node.waitFor('mcp_http_ready', 60_000)).port}`;
  const template = await json(`${base}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ design_flow: 'mech_v1', project_id: 'bench-template', goal: 'a bracket' }),
  });
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
  process.stdout.write(
    `seeded ${total} pending items (${JSON.stringify(PLAN)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  const all = await json(`${base}/v1/approvals`);
  if (all.items.length < total)
    throw new Error(`the queue lists ${all.items.length} pending items, expected at least ${total}`);
  const scoped = await timeGet(`${base}/v1/approvals?project_id=bench-p07`, LIST_RUNS);
  process.stdout.write(
    `GET /v1/approvals?project_id=bench-p07 (${(scoped.bytes / 1024).toFixed(0)} KB per answer): ${fmt(scoped)}  [target p50 < 30 ms]\n`,
  );
  const kind = await timeGet(`${base}/v1/approvals?project_id=bench-p07&kind=gate`, LIST_RUNS);
  process.stdout.write(`GET /v1/approvals?project_id=bench-p07&kind=gate: ${fmt(kind)}\n`);
  const unfiltered = await timeGet(`${base}/v1/approvals`, 10);
  process.stdout.write(
    `GET /v1/approvals (all ${all.items.length} pending, ${(unfiltered.bytes / 1024 / 1024).toFixed(1)} MB): ${fmt(unfiltered)}\n`,
  );

  // Decisions on distinct items across kinds, sent by a client process (support/burst.ts) on warmed keep-alive sockets:
  // first the same client against a bare node:http server (the machine's floor for that many requests), then the service.
  const per = Math.ceil(DECISIONS / 4);
  const batch = (from: number, n = per) =>
    [
      ...ids.gate
        .slice(from, from + n)
        .map((id) => ({ path: `/v1/approvals/${id}/decision`, body: { decision: 'reject', reason: 'bench' } })),
      ...ids.tool
        .slice(from, from + n)
        .map((id) => ({ path: `/v1/approvals/${id}/decision`, body: { decision: 'approve' } })),
      ...ids.change
        .slice(from, from + n)
        .map((id) => ({ path: `/v1/approvals/${id}/decision`, body: { decision: 'approve' } })),
      ...ids.sketch
        .slice(from, from + n)
        .map((id) => ({ path: `/v1/approvals/${id}/decision`, body: { decision: 'approve' } })),
    ].slice(0, DECISIONS);
  const sample = await json(`${base}/v1/approvals/${ids.tool[ids.tool.length - 1]}`);
  const bare = await startChildServer('bare-server.ts', [JSON.stringify(sample)]);
  const writer = await startChildServer('bare-write-server.ts', [db.url, String(3 * DECISIONS + 200), '20']);
  let row = 0;
  /** The same requests for the write floor, each on a row of its own (distinct decisions touch distinct rows). */
  const onRows = (work: { path: string; body: unknown }[]) => work.map((w) => ({ ...w, path: `/row/${row++}` }));
  try {
    // An untimed warm-up of 200 decisions (50 per kind, 16 in flight) on every target: compiled code and statement
    // plans, so the rounds measure a warm service.
    const warm = batch(3 * per, 50);
    await burst(bare.url, warm, '16');
    await burst(writer.url, onRows(warm), '16');
    const warmed = await burst(base, warm, '16');
    if (warmed.status.some((st) => st !== 200))
      throw new Error(`warm-up decisions failed: ${[...new Set(warmed.status)].join(', ')}`);
    const rounds: [string, string, number][] = [
      ['all', `all ${DECISIONS} at once`, 0],
      [String(IN_FLIGHT), `${IN_FLIGHT} in flight`, per],
      ['64', '64 in flight', 2 * per],
    ];
    for (const [mode, label, from] of rounds) {
      const work = batch(from);
      const floor = await burst(bare.url, work, mode);
      const write = await burst(writer.url, onRows(work), mode);
      const ran = await burst(base, work, mode);
      const f = stats(floor.ms);
      const w = stats(write.ms);
      const d = stats(ran.ms);
      const wrote = write.status.filter((st) => st === 200).length;
      const failed = ran.status.map((st, i) => [st, work[i].path] as const).filter(([st]) => st !== 200);
      process.stdout.write(
        `${DECISIONS} decisions, ${label} (${per} each of gates, ledger requests, design changes, sketches):\n`,
      );
      process.stdout.write(`  bare node:http, same client and requests  ${fmt(f)}, span ${floor.span.toFixed(0)} ms\n`);
      process.stdout.write(
        `  bare node:http + one PostgreSQL UPDATE     ${fmt(w)}, span ${write.span.toFixed(0)} ms, ${((work.length / write.span) * 1000).toFixed(0)} writes/s; ${wrote}/${work.length} wrote\n`,
      );
      process.stdout.write(
        `  service                                   ${fmt(d)}, span ${ran.span.toFixed(0)} ms, ${((work.length / ran.span) * 1000).toFixed(0)} decisions/s; ${work.length - failed.length}/${work.length} succeeded\n`,
      );
      process.stdout.write(
        `  ratio service/bare: p50 ${(d.p50 / f.p50).toFixed(1)}x, p99 ${(d.p99 / f.p99).toFixed(1)}x; service/bare+UPDATE: p50 ${(d.p50 / w.p50).toFixed(1)}x, p99 ${(d.p99 / w.p99).toFixed(1)}x${mode === 'all' ? '  [target: all succeed, p99 < 100 ms]' : ''}\n`,
      );
      const kindOf = (p: string) => /\/v1\/approvals\/(\w+):/.exec(p)?.[1] ?? '?';
      const byKind = new Map<string, number[]>();
      work.forEach((w, i) => {
        const k = kindOf(w.path);
        byKind
          .set(k, byKind.get(k) ?? [])
          .get(k)!
          .push(ran.ms[i]);
      });
      process.stdout.write(
        `  service by kind: ${[...byKind].map(([k, v]) => `${k} p50 ${stats(v).p50.toFixed(1)} ms`).join(', ')}\n`,
      );
      if (failed.length)
        process.stdout.write(
          `  failed: ${failed
            .slice(0, 5)
            .map(([st, p]) => `${p} ${st}`)
            .join(', ')}\n`,
        );
    }
  } finally {
    bare.stop();
    writer.stop();
  }
  process.stdout.write(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${os.cpus().length} cores)\n`,
  );
} finally {
  await node.kill();
  await db.drop();
}
