// npm run bench:dashboard — the dashboard in headless Chromium against a node in its own process (the approvals
// node: the launcher's startNode, PostgreSQL, serving dashboard/dist), each figure beside a baseline from the same run:
// (a) navigation to /approvals until the list shows with 10,000 pending items (seeded as bench:approvals does,
//     support/approvals-seed.ts); rows are `[data-testid=approvals-table] tbody tr` and the count line
//     `[data-testid=approvals-count]` reads the whole list. Baseline: the raw fetch + JSON.parse of
//     GET /v1/approvals?status=pending in the page. Target < 1 s.
// (b) navigation to /sim?result=<id> until the viewer's first frame (performance mark `viewer-first-frame`) on a real
//     1.5 MB field (support/dashboard-field.ts: a plate solved by CalculiX, ~63k surface vertices). Baseline: the raw
//     fetch + gunzip + JSON.parse of the same payload in the page. Target < 1.5 s.
// (c) JS of the first route (/projects) as the browser loads it, gzipped (zlib level 9 over the dist files), against
//     300 KB; and whether any three.js chunk is among them (it must not be).
// Needs the dashboard built (npm run build:dashboard). BENCH_RUNS (default 5) navigations per figure, median shown;
// BENCH_PARTS=a,b,c picks parts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { APPROVAL_ROLES } from '../support/approvals.ts';
import { launchChromium } from '../support/browser.ts';
import { createTestDatabase } from '../support/pg.ts';
import { probeServers } from '../support/servers.ts';
import { createProjectHttp, recordSimResult } from '../support/sim-results.ts';
import { spawnService } from '../support/spawn.ts';
import { until } from './support/until.ts';
import { PLAN, seedApprovals } from './support/approvals-seed.ts';
import { benchField } from './support/dashboard-field.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const NODE = path.join(HERE, '../support/approvals-node.ts');
const DIST = path.join(HERE, '../../dashboard/dist');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Which parts to run (a, b, c; default all): BENCH_PARTS=b skips the 10,000-item seeding. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'a,b,c').split(','));
const out = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

if (!fs.existsSync(path.join(DIST, 'index.html'))) {
  process.stderr.write('bench:dashboard needs the built dashboard (npm run build:dashboard)\n');
  process.exit(1);
}
if (!(await probeServers()).pg) {
  process.stderr.write('bench:dashboard needs PostgreSQL at 127.0.0.1:5432 (TEST_PG_URL)\n');
  process.exit(1);
}
const field = await benchField();
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dash-ws-'));
fs.copyFileSync(field.file, path.join(workspace, 'plate.field.json.gz'));
const db = await createTestDatabase('bench_dashboard');
const node = spawnService(
  ['--roles', APPROVAL_ROLES, '--port', '0'],
  { SERVICE_DATABASE_URL: db.url, SERVICE_LOG_LEVEL: 'warn', SERVICE_WORKSPACE: workspace },
  NODE,
);
let browser: Browser | undefined;
try {
  const base = `http://127.0.0.1:${(await node.waitFor('mcp_http_ready', 60_000)).port}`;
  out(
    `dashboard bench on ${os.availableParallelism()} cores, Chromium headless (SwiftShader WebGL); ${RUNS} runs each`,
  );

  // The 1.5 MB field, recorded as an agent records a result (a held MCP write approved through the approvals API).
  const project = await createProjectHttp(base, 'bench plate');
  const result = await recordSimResult(base, {
    projectId: project,
    name: 'plate 20 N',
    field: { file: 'plate.field.json.gz' },
    summary: { max_von_mises_mpa: Number(field.maxVonMises.toFixed(2)) },
  });
  if (!result.field_stored) throw new Error(`the field was not stored: ${JSON.stringify(result)}`);

  // 10,000 pending items, exactly as bench:approvals seeds them.
  let pending = 0;
  if (PARTS.has('a')) {
    const post = await fetch(`${base}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ design_flow: 'mech_v1', project_id: 'bench-template', goal: 'a bracket' }),
    });
    const template = (await post.json()) as { id: string };
    const gate = async () =>
      ((await (await fetch(`${base}/v1/approvals/gate:${template.id}`)).json()) as { status?: string }).status;
    await until(async () => ((await gate()) === 'pending' ? true : undefined), {
      what: 'the template run reaching its first gate',
      timeoutMs: 20_000,
    });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await seedApprovals(c, template.id);
    await c.end();
    const seeded = PLAN.gates + PLAN.ledger + PLAN.changes + PLAN.loops + PLAN.sketches + PLAN.drawings;
    pending = ((await (await fetch(`${base}/v1/approvals?status=pending`)).json()) as { items: unknown[] }).items
      .length;
    out(`seeded ${seeded} pending items; GET /v1/approvals?status=pending lists ${pending}`);
  }

  browser = await launchChromium();
  const fresh = async () => {
    const context = await browser!.newContext({ baseURL: base, viewport: { width: 1400, height: 900 } });
    return { context, page: await context.newPage() };
  };

  // (a) /approvals with 10,000 pending items.
  if (PARTS.has('a')) {
    const listMs: number[] = [];
    const fetchMs: number[] = [];
    const pageFetchMs: number[] = [];
    let listBytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const { context, page } = await fresh();
      await page.goto('/approvals?status=pending', { waitUntil: 'commit' });
      const shown = await page.waitForFunction(
        (n) => {
          const rows = document.querySelectorAll('[data-testid="approvals-table"] tbody tr').length;
          const count = Number.parseInt(
            document.querySelector('[data-testid="approvals-count"]')?.textContent ?? '',
            10,
          );
          return rows > 0 && count >= n ? performance.now() : false;
        },
        pending,
        { polling: 'raf', timeout: 120_000 },
      );
      listMs.push((await shown.jsonValue()) as number);
      const own = await page.evaluate(() => {
        const e = performance
          .getEntriesByType('resource')
          .find(
            (r) => r.name.includes('/v1/approvals?') && r.name.includes('status=pending'),
          ) as PerformanceResourceTiming;
        return e ? { ms: e.responseEnd - e.startTime, bytes: e.decodedBodySize } : null;
      });
      if (own) {
        pageFetchMs.push(own.ms);
        listBytes = own.bytes;
      }
      fetchMs.push(
        await page.evaluate(async () => {
          const t = performance.now();
          const res = await fetch('/v1/approvals?status=pending', {
            cache: 'no-store',
            headers: { accept: 'application/json', 'X-Service-Surface': 'dashboard' },
          });
          JSON.parse(await res.text());
          return performance.now() - t;
        }),
      );
      await context.close();
    }
    out(`\n(a) /approvals, ${pending} pending items (${(listBytes / 1024 / 1024).toFixed(1)} MB of JSON):`);
    out(`  navigation to the list shown        median ${ms(median(listMs))}  [${list(listMs)}]  target < 1000 ms`);
    out(`  baseline: raw fetch + JSON.parse     median ${ms(median(fetchMs))}  [${list(fetchMs)}]`);
    out(`  (the page's own fetch of the list    median ${ms(median(pageFetchMs))})`);
    out(`  ratio page / baseline ${(median(listMs) / median(fetchMs)).toFixed(2)}x`);
  }

  // (b) the viewer's first frame on the 1.5 MB field.
  if (PARTS.has('b')) {
    const frameMs: number[] = [];
    const rawMs: number[] = [];
    const stages: Record<string, number>[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { context, page } = await fresh();
      await page.goto(`/sim?result=${result.node_id}`, { waitUntil: 'commit' });
      await page.waitForFunction(() => performance.getEntriesByName('viewer-first-frame').length > 0, null, {
        polling: 'raf',
        timeout: 120_000,
      });
      const marks = await page.evaluate(() =>
        Object.fromEntries(
          [
            'field-received',
            'field-decoded',
            'viewer-mounted',
            'viewer-context',
            'viewer-objects',
            'viewer-first-render',
            'viewer-first-frame',
          ].map((n) => [n, performance.getEntriesByName(n)[0]?.startTime ?? NaN]),
        ),
      );
      frameMs.push(marks['viewer-first-frame']);
      stages.push(marks);
      rawMs.push(
        await page.evaluate(async (id) => {
          const t = performance.now();
          const res = await fetch(`/v1/simulation/results/${id}/field`, { cache: 'no-store' });
          const buf = new Uint8Array(await res.arrayBuffer());
          const text =
            buf[0] === 0x1f && buf[1] === 0x8b
              ? await new Response(new Blob([buf]).stream().pipeThrough(new DecompressionStream('gzip'))).text()
              : new TextDecoder().decode(buf);
          JSON.parse(text);
          return performance.now() - t;
        }, result.node_id),
      );
      await context.close();
    }
    const st = (k: string) => median(stages.map((s) => s[k]));
    out(
      `\n(b) /sim viewer, field of ${(field.bytes / 1024 / 1024).toFixed(2)} MB gzip, ${field.vertices} vertices / ${field.triangles} triangles:`,
    );
    out(`  navigation to the first frame        median ${ms(median(frameMs))}  [${list(frameMs)}]  target < 1500 ms`);
    out(
      `  (marks, median: field received ${ms(st('field-received'))}, decoded into typed arrays ${ms(st('field-decoded'))}, viewer mounted ${ms(st('viewer-mounted'))}, WebGL context ${ms(st('viewer-context'))}, mesh built ${ms(st('viewer-objects'))}, first render called ${ms(st('viewer-first-render'))}, first frame ${ms(st('viewer-first-frame'))})`,
    );
    out(`  baseline: raw fetch + gunzip + JSON.parse in the page  median ${ms(median(rawMs))}  [${list(rawMs)}]`);
    out(`  ratio first frame / baseline ${(median(frameMs) / median(rawMs)).toFixed(2)}x`);
  }

  // (c) the first route's JS.
  if (PARTS.has('c')) {
    const threeChunks = new Set(
      fs
        .readdirSync(path.join(DIST, 'assets'))
        .filter(
          (f) => f.endsWith('.js') && fs.readFileSync(path.join(DIST, 'assets', f), 'utf8').includes('WebGLRenderer'),
        ),
    );
    const jsOf = async (route: string) => {
      const { context, page } = await fresh();
      const urls: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') urls.push(new URL(r.url()).pathname);
      });
      await page.goto(route, { waitUntil: 'networkidle' });
      await context.close();
      const files = [...new Set(urls)].map((u) => path.join(DIST, u));
      const raw = files.reduce((n, f) => n + fs.statSync(f).size, 0);
      const gz = files.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length, 0);
      const three = files.filter((f) => threeChunks.has(path.basename(f)));
      return { n: files.length, raw, gz, three };
    };
    const first = await jsOf('/projects');
    const sim = await jsOf(`/sim?result=${result.node_id}`);
    const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
    out(`\n(c) JS of the first route /projects: ${first.n} files, ${kb(first.raw)} raw, ${kb(first.gz)} gzipped`);
    out(`  target < 300 KB gzipped: ${(first.gz / 1024 / 300).toFixed(2)} of the budget`);
    out(
      `  three.js chunks (${[...threeChunks].join(', ')}) loaded on /projects: ${first.three.length ? first.three.map((f) => path.basename(f)).join(', ') : 'none'}`,
    );
    out(
      `  for comparison /sim with the viewer: ${sim.n} files, ${kb(sim.gz)} gzipped (${(sim.gz / first.gz).toFixed(1)}x the first route), three.js loaded: ${sim.three.length ? 'yes' : 'no'}`,
    );
    if (first.three.length) process.exitCode = 1;
  }
} finally {
  await browser?.close();
  await node.kill('SIGTERM');
  await db.drop();
  fs.rmSync(workspace, { recursive: true, force: true });
}
