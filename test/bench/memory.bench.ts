// npm run bench:memory — resident memory of the service (issue 20: an idle embedded node under 300 MB).
// (1) a bare `node -e` process, the floor of the same run;
// (2) `service` as `npm start` runs it (every role, embedded PGlite, HTTP): idle after the first start (new data dir)
//     and after a second start on it; then, on the second, right
//     after one CAD call (cadscript.get_properties over MCP, which starts a kernel thread), and after that thread's idle
//     release (SERVICE_CAD_IDLE_MS = BENCH_CAD_IDLE_MS, default 3000; the release is awaited on its log line);
// (3) with PostgreSQL and NATS on 127.0.0.1: each k8s Deployment's roles in a node of their own on the bus, idle and at
//     the peak of its heaviest work (support/deployment-peaks.ts), the figures k8s/base sets memory from.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { spawnService } from '../support/spawn.ts';
import { probeServers } from '../support/servers.ts';
import { isGoodResult, MCP_HEADERS, openSession } from './support/mcp-load.ts';
import { procMb, procThreads, sampleTree } from './support/rss.ts';
import { deploymentPeaks, printPeaks } from './support/deployment-peaks.ts';

const IDLE_MS = Number(process.env.BENCH_CAD_IDLE_MS ?? 3000);
/** How long a just-started node is left alone before its idle size is read (V8 and glibc give memory back slowly). */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 15_000);
/** The same for each Deployment's node (15 of them; their idle sizes barely move after 5 s). */
const DEPLOYMENT_SETTLE_MS = Number(process.env.BENCH_DEPLOYMENT_SETTLE_MS ?? 5000);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (v: number) => `${v.toFixed(0).padStart(5)} MB`;

// (1) bare node
const bare = spawn(process.execPath, ['-e', 'console.log("ready"); setInterval(() => {}, 1e6)'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((r) => bare.stdout.once('data', r));
await pause(1000);
const bareMb = procMb(bare.pid!);
bare.kill();

// (2) the embedded default
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
const ws = path.join(dataDir, 'workspace');
fs.mkdirSync(ws, { recursive: true });
fs.copyFileSync(
  createRequire(import.meta.url).resolve('occt-import-js/test/testfiles/rounded-cube/rounded-cube.step'),
  path.join(ws, 'cube.step'),
);
/** Starts `service` as `npm start` runs it on the bench's data dir; answers it once ready, with its start time. */
async function start() {
  const t0 = performance.now();
  const svc = spawnService([], {
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: dataDir,
    SERVICE_WORKSPACE: ws,
    SERVICE_CAD_IDLE_MS: `${IDLE_MS}`,
  });
  const ready = await svc.waitFor('mcp_http_ready', 300_000);
  return { svc, ready, startMs: performance.now() - t0 };
}
// The first start creates the database (initdb and every migration inside PGlite's wasm heap, which never shrinks);
// every later `npm start` opens it.
const first = await start();
await pause(SETTLE_MS);
const firstIdle = { rss: procMb(first.svc.proc.pid!), threads: procThreads(first.svc.proc.pid!) };
await first.svc.kill();
const { svc, ready, startMs } = await start();
const pid = svc.proc.pid!;
await pause(SETTLE_MS);
const idle = { rss: procMb(pid), threads: procThreads(pid) };

const base = `http://127.0.0.1:${ready.port as number}`;
const session = await openSession(base);
const callCad = async () => {
  const started = performance.now();
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': session },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'cadscript.get_properties', arguments: { file_path: 'cube.step' } },
    }),
  });
  const text = await res.text();
  if (res.status !== 200 || !isGoodResult(text))
    throw new Error(`CAD call failed: ${res.status} ${text.slice(0, 300)}`);
  return performance.now() - started;
};
const sampler = sampleTree(pid);
const firstMs = await callCad();
const warmMs = await callCad();
const peak = sampler.stop();
const afterCall = { rss: procMb(pid), threads: procThreads(pid) };
await svc.waitFor('cad kernel thread released when idle', IDLE_MS + 120_000);
await pause(1000);
const released = { rss: procMb(pid), threads: procThreads(pid) };
await pause(10_000);
const releasedLater = procMb(pid);
await svc.kill();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `\nMemory benchmark: ${os.availableParallelism()} cores, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; resident size (VmRSS) read from /proc`,
);
console.log(`bare node -e                                     ${mb(bareMb)}`);
console.log(
  `npm start, first start (all roles, new PGlite data dir), started in ${(first.startMs / 1000).toFixed(1)} s`,
);
console.log(
  `  idle ${SETTLE_MS} ms after ready, no call           ${mb(firstIdle.rss)}  (${firstIdle.threads} OS threads)`,
);
console.log(`npm start, next start (all roles, existing data dir), started in ${(startMs / 1000).toFixed(1)} s`);
console.log(`  idle ${SETTLE_MS} ms after ready, no call           ${mb(idle.rss)}  (${idle.threads} OS threads)`);
console.log(
  `  after one CAD call (kernel thread started)     ${mb(afterCall.rss)}  (${afterCall.threads} OS threads; peak ${peak.peakTreeMb.toFixed(0)} MB)`,
);
console.log(
  `  1 s after the idle release (SERVICE_CAD_IDLE_MS=${IDLE_MS}) ${mb(released.rss)}  (${released.threads} OS threads; 11 s after: ${releasedLater.toFixed(0)} MB)`,
);
console.log(
  `  first CAD call ${firstMs.toFixed(0)} ms (thread start, kernel init and warm-up), the next ${warmMs.toFixed(0)} ms`,
);
console.log(
  `target: idle under 300 MB: next start ${idle.rss < 300 ? 'met' : 'NOT met'}, first start ${firstIdle.rss < 300 ? 'met' : 'NOT met'}`,
);

// (3) per Deployment
const servers = await probeServers();
if (process.env.BENCH_DEPLOYMENTS === '0') console.log('\nDeployments skipped (BENCH_DEPLOYMENTS=0)');
else if (!servers.pg || !servers.nats)
  console.log('\nDeployments skipped: PostgreSQL and NATS on 127.0.0.1 are needed');
else printPeaks(await deploymentPeaks({ settleMs: DEPLOYMENT_SETTLE_MS }));
process.exit(0);
