// npm run bench:gateway — GET /v1/projects/{id} through the gateway and the broker to the projects actor (embedded,
// PGlite), 50 connections, against a bare node:http server answering the same JSON in the same run; then the time from
// `npm start` to the first 200 on /health with an existing data folder.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, printTable } from './support/load.ts';
import { startChildServer } from './support/mcp-load.ts';
import { spawnService } from '../support/spawn.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);

async function timeToHealth(dataDir: string): Promise<number> {
  const t0 = performance.now();
  const s = spawnService(['--port', '0'], { SERVICE_DATA_DIR: dataDir, SERVICE_LOG_LEVEL: 'info' });
  const ready = await s.waitFor('mcp_http_ready', 30_000);
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${ready.port}/health`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - t0;
  await s.kill('SIGTERM');
  return ms;
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-gw-'));
const svc = spawnService(['--port', '0'], { SERVICE_DATA_DIR: dataDir });
const ready = await svc.waitFor('mcp_http_ready', 30_000);
const base = `http://127.0.0.1:${ready.port}`;
const project = (await (
  await fetch(`${base}/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  })
).json()) as { id: string };
const bare = await startChildServer('bare-server.ts', [JSON.stringify(project)]);

await load('warm-up', { url: `${base}/v1/projects/${project.id}`, seconds: 2 });
await load('warm-up', { url: bare.url, seconds: 2 });
const baseline = await load('bare node:http, same JSON', { url: bare.url, seconds });
const gateway = await load('gateway -> broker -> projects (embedded)', {
  url: `${base}/v1/projects/${project.id}`,
  seconds,
});
process.stdout.write(`\nbench:gateway  ${os.availableParallelism()} cores, 50 connections, ${seconds} s each\n`);
printTable([baseline, gateway], baseline);
process.stdout.write(
  `target: gateway >= 0.40 of bare req/s -> ${(gateway.requestsPerSec / baseline.requestsPerSec).toFixed(2)}\n`,
);

bare.stop();
await svc.kill('SIGTERM');
const startMs = [];
for (let i = 0; i < 3; i++) startMs.push(await timeToHealth(dataDir));
process.stdout.write(
  `start to first 200 on /health, existing data folder: ${startMs.map((m) => m.toFixed(0)).join(' / ')} ms (target < 3000)\n`,
);
await fs.rm(dataDir, { recursive: true, force: true });
