import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRootLogger } from '../../../brokers/logger.ts';
import { DASHBOARD_DIST, dashboardPlugin } from '../../../gateway/plugins/dashboard.ts';
import { registerErrorHandling } from '../../../gateway/plugins/errors.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

/** The gateway serves the dashboard at `/` on its own port: deep links answer the app, API paths keep JSON 404s. */
let t: TestNode;
beforeAll(async () => {
  await fs.access(path.join(DASHBOARD_DIST, 'index.html')).catch(() => {
    throw new Error('dashboard/dist is missing: npm install builds it (npm run build:dashboard)');
  });
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

describe('the dashboard on the gateway port', () => {
  it('answers / and every deep link with the app, with its security headers and no caching of the page', async () => {
    for (const p of [
      '/',
      '/projects',
      '/runs/6f1c0c1e-0000-4000-8000-000000000000',
      '/approvals?status=pending',
      '/no/such/page',
    ]) {
      const res = await fetch(`${t.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toContain('text/html');
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(res.headers.get('content-security-policy'), p).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(await res.text(), p).toContain('<div id="root"></div>');
    }
  });

  it('serves hashed assets for a year and keeps API paths, other methods and unknown assets as JSON 404s', async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const js = await fetch(`${t.url}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(0);

    for (const [method, p] of [
      ['GET', '/v1/nope'],
      ['GET', '/api/v1/nope'],
      ['GET', '/mcp/nope'],
      ['GET', '/assets/missing.js'],
      // The API reference's own files (/docs, swagger-ui): a missing one is no dashboard page.
      ['GET', '/docs/static/missing.js'],
      ['GET', '/docs/static/any/path?x=%ff'],
      ['HEAD', '/docs/static/missing.css'],
      ['GET', '/openapi.json/x'],
      ['POST', '/projects'],
      ['DELETE', '/runs'],
    ] as const) {
      const res = await fetch(`${t.url}${p}`, { method });
      expect(res.status, `${method} ${p}`).toBe(404);
      if (method === 'HEAD') continue;
      expect((await res.json()) as unknown, `${method} ${p}`).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('never serves a file outside the build, whatever the path says', async () => {
    for (const p of [
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/assets/%ff',
    ]) {
      const res = await fetch(`${t.url}${p}`);
      const text = await res.text();
      expect(res.status, p).toBeLessThan(500);
      expect(text, p).not.toContain('"devDependencies"');
    }
  });
});

describe('a gateway whose dashboard is not built', () => {
  it('answers page paths with a 503 page naming the build command, API paths unchanged', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'dash-empty-'));
    const app = Fastify();
    registerErrorHandling(app, createRootLogger({ level: 'silent' }));
    await app.register(dashboardPlugin({ dist: empty }));
    try {
      const page = await app.inject({ method: 'GET', url: '/runs' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('npm run build:dashboard');
      const api = await app.inject({ method: 'GET', url: '/v1/runs' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    } finally {
      await app.close();
      await fs.rm(empty, { recursive: true, force: true });
    }
  });
});
