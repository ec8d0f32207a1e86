import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { spawnService, type SpawnedService } from './spawn.ts';

/** Debian's Chromium (notes/browser.md): no browser can be downloaded here, so playwright-core drives this one. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the dashboard tests put their screenshots (a CI artifact folder; git ignores test-results/). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-results/dashboard');

/** Headless Chromium as the probe starts it: no sandbox (root), no background network (the machine's network is closed). */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-unsafe-swiftshader',
    ],
  });
}

export interface DashboardNode {
  url: string;
  service: SpawnedService;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A real `npm start`-style node (the service command, embedded, PGlite in a fresh data folder) serving the built
 * dashboard at `/` on a free port. `env` adds to or overrides the defaults (a real database, a workspace).
 */
export async function startDashboardNode(env: Record<string, string> = {}): Promise<DashboardNode> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dash-data-'));
  const service = spawnService(['--port', '0'], { SERVICE_DATA_DIR: dataDir, ...env });
  // A first start prepares its database in a child process (initdb and every migration): a deadline, not a speed check.
  const ready = await service.waitFor('mcp_http_ready', 180_000);
  const url = `http://127.0.0.1:${String(ready.port)}`;
  return {
    url,
    service,
    dataDir,
    async stop() {
      // SIGKILL: the browser tests do not test the drain (test/e2e/launcher.test.ts does); after the viewer test's
      // steps a SIGTERM stop was seen to take about a minute (cause not yet found), which no assertion here needs.
      if (service.proc.exitCode === null && service.proc.signalCode === null) await service.kill('SIGKILL');
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page that records every request the dashboard sends (method, URL, headers) for header checks. */
export async function openPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page; sent: SentRequest[] }> {
  const context = await browser.newContext({ baseURL, bypassCSP: true, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const sent: SentRequest[] = [];
  page.on('request', (r) => sent.push({ method: r.method(), url: r.url(), headers: r.headers() }));
  return { context, page, sent };
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

const require = createRequire(import.meta.url);

/** Runs axe-core in the page; answers the serious and critical violations (id, impact, first target, help). */
export async function seriousA11yViolations(
  page: Page,
): Promise<{ id: string; impact: string; help: string; target: string }[]> {
  const source = await fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<any> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return (result.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, target: String(v.nodes?.[0]?.target ?? '') }));
}

/** Saves a full-page screenshot of the current route under test-results/dashboard/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
