// npm run bench:mcp — MCP `tools/call` of project.get over Streamable HTTP (JSON replies, one session opened up front and
// shared by every connection, one pre-built body), 50 connections, BENCH_SECONDS (10) each:
//   (a) embedded: one process, all roles (PGlite in memory);
//   (b) the project adapter on a second process over NATS: `gateway,tools,projects` + `adapter:project`, one fresh
//       PostgreSQL database shared, a namespace of its own (skipped when NATS or PostgreSQL is not reachable);
//   (c) a bare node:http JSON-RPC echo answering the same result, in the same run (the baseline);
//   (d) OAuth: one embedded process with the shared key and an issuer, the same call with the key and with a JWT
//       access token alternately (one connection), and the token verifier alone on a cached JWKS; target: a token adds
//       under 0.2 ms at p50 (support/mcp-oauth-case.ts).
// Each case runs twice: 50 connections flat out (throughput; at saturation p50 is about connections / calls/s, by
// Little's law, so it says nothing of a call's own latency) and one connection (the round trip of one call, where the
// p50 targets are judged; autocannon's `overallRate` pacing fires every connection at once each tick, so a paced run
// measures its own bursts). Every answer is checked: non-2xx, socket errors, JSON-RPC errors and isError are bad.
// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the embedded process there (open it in Chrome DevTools).
import crypto from 'node:crypto';
import os from 'node:os';
import { createTestDatabase } from '../support/pg.ts';
import { probeServers, TEST_SERVERS } from '../support/servers.ts';
import { runOAuthCase } from './support/mcp-oauth-case.ts';
import { spawnService, type SpawnedService } from '../support/spawn.ts';
import {
  callOnce,
  MCP_HEADERS,
  mcpLoad,
  openSession,
  printMcpTable,
  startBare,
  untilCallable,
  type McpLoadResult,
} from './support/mcp-load.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const TARGET = { p50ms: 2, callsPerSec: 2000, natsAddedP50ms: 1, tokenAddedP50ms: 0.2 };

/** What a case needs to be driven: the endpoint, the pre-built body and the session headers. */
interface Target {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** Creates a project through the gateway, opens a session and checks that one call of project.get succeeds. */
async function prepare(port: number | string, waitForAdapter = false): Promise<Target & { result: unknown }> {
  const base = `http://127.0.0.1:${port}`;
  const created = await fetch(`${base}/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`creating the project failed: ${created.status} ${await created.text()}`);
  const project = (await created.json()) as { id: string };
  const session = await openSession(base);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'project.get', arguments: { project_id: project.id } },
  });
  const headers = { ...MCP_HEADERS, 'mcp-session-id': session };
  const url = `${base}/mcp`;
  const text = waitForAdapter ? await untilCallable(url, body, headers) : await callOnce(url, body, headers);
  return { url, body, headers, result: (JSON.parse(text) as { result: unknown }).result };
}

/** Warms up, then measures with 50 connections and with one; returns [throughput, latency]. */
async function measure(label: string, t: Target): Promise<[McpLoadResult, McpLoadResult]> {
  await mcpLoad(`${label} (warm-up)`, { ...t, connections, seconds: 2 });
  const flat = await mcpLoad(label, { ...t, connections, seconds });
  return [flat, await mcpLoad(label, { ...t, connections: 1, seconds })];
}

const rows: [McpLoadResult, McpLoadResult][] = [];
const profDir = process.env.BENCH_CPU_PROF;

// (a) embedded
const embedded = spawnService(['--port', '0'], {
  SERVICE_DATA_DIR: 'memory://',
  ...(profDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` } : {}),
});
const ready = await embedded.waitFor('mcp_http_ready', 120_000);
const a = await prepare(ready.port as number);

// (c) bare node:http, answering the very result the embedded node gave
const bare = await startBare(a.result);
const c = await measure('(c) bare node:http JSON-RPC echo', { url: bare.url, body: a.body, headers: a.headers });
bare.stop();
rows.push(c);
rows.push(await measure('(a) embedded: one process, all roles', a));
await embedded.kill('SIGTERM');

// (b) the project adapter on a second broker over NATS
const servers = await probeServers();
let nats: [McpLoadResult, McpLoadResult] | undefined;
if (servers.nats && servers.pg) {
  const db = await createTestDatabase('bench');
  // The cluster as README's "Running a cluster" sets it up: NATS, PostgreSQL and the Redis cacher (the embedded case
  // caches in memory, so without Redis this case would also pay a PostgreSQL read the other does not).
  const env = {
    SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
    SERVICE_NAMESPACE: `bench-${crypto.randomBytes(3).toString('hex')}`,
    SERVICE_DATABASE_URL: db.url,
    ...(servers.redis ? { SERVICE_REDIS_URL: TEST_SERVERS.redisUrl } : {}),
  };
  const procs: SpawnedService[] = [];
  try {
    procs.push(spawnService(['--roles', 'gateway,tools,projects', '--port', '0'], env));
    procs.push(spawnService(['--roles', 'adapter:project'], env));
    const front = await procs[0].waitFor('mcp_http_ready', 120_000);
    await procs[1].waitFor('node_ready', 120_000);
    nats = await measure('(b) adapter on a 2nd broker over NATS', await prepare(front.port as number, true));
    rows.push(nats);
  } finally {
    await Promise.all(procs.map((p) => p.kill('SIGTERM')));
    await db.drop();
  }
} else {
  process.stdout.write(
    `(b) skipped: NATS ${servers.nats ? 'up' : 'not reachable'}, PostgreSQL ${servers.pg ? 'up' : 'not reachable'}\n`,
  );
}

// (d) OAuth access tokens against the shared key
const oauth = await runOAuthCase(seconds);

const [embFlat, embOne] = rows[1];
process.stdout.write(
  `\nbench:mcp  tools/call project.get, ${os.availableParallelism()} cores, ${connections} connections, ${seconds} s each, Node ${process.version}\n`,
);
process.stdout.write(`throughput: ${connections} connections flat out\n`);
printMcpTable(
  rows.map((r) => r[0]),
  c[0],
);
process.stdout.write('latency: one connection, one call at a time\n');
printMcpTable(
  rows.map((r) => r[1]),
  c[1],
);
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
process.stdout.write(
  `targets (2 cores): embedded p50 < ${TARGET.p50ms} ms (one connection) -> ${embOne.p50ms.toFixed(2)} ms ${verdict(embOne.p50ms < TARGET.p50ms)}; ` +
    `embedded > ${TARGET.callsPerSec} calls/s -> ${embFlat.callsPerSec.toFixed(0)} ${verdict(embFlat.callsPerSec > TARGET.callsPerSec)}`,
);
if (nats) {
  const added = nats[1].p50ms - embOne.p50ms;
  process.stdout.write(
    `; NATS adds < ${TARGET.natsAddedP50ms} ms at p50 (one connection) -> ${added.toFixed(2)} ms ${verdict(added < TARGET.natsAddedP50ms)}`,
  );
}
process.stdout.write('\n');
process.stdout.write(
  'oauth: one connection, the same process, shared key vs JWT access token (median of 3 rounds each)\n',
);
printMcpTable([oauth.key, oauth.token], oauth.key);
process.stdout.write(
  `target: a token adds < ${TARGET.tokenAddedP50ms} ms at p50 -> ${oauth.addedP50ms.toFixed(3)} ms ${verdict(oauth.addedP50ms < TARGET.tokenAddedP50ms)}; ` +
    `verify() alone, cached JWKS: p50 ${(oauth.verifyP50ms * 1000).toFixed(1)} us\n`,
);
const bad = [...rows.flat(), oauth.key, oauth.token].reduce((n, r) => n + r.non2xx + r.errors + r.rpcErrors, 0);
if (bad) {
  process.stdout.write(`${bad} answers were not successful tool results: these figures are not valid\n`);
  process.exitCode = 1;
}
if (profDir) process.stdout.write(`CPU profile of the embedded process: ${profDir}/*.cpuprofile\n`);
