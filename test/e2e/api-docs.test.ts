import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.ts';
import { useTestNode } from '../support/node.ts';

// The interactive API reference at /docs (issue 18) in Debian's Chromium: the page renders every operation of
// /openapi.json under its area with the spec's words, shows the multipart forms, breaks no rule of its own CSP, and
// "Try it out" sends a real request to the gateway and shows the answer.
const t = useTestNode();
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  page.on('pageerror', (e) => void problems.push(String(e)));
  await page.goto(`${t.url}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('the API reference at /docs', () => {
  it('shows every operation of the document under its area, each with its summary, and no page error', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    const count = Object.values(doc.paths as Record<string, object>).reduce((n, ops) => n + Object.keys(ops).length, 0);
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 30_000 }).toBe(count);
    const areas = await page.locator('.opblock-tag').allInnerTexts();
    expect(areas.map((a) => a.trim().split('\n')[0])).toEqual(
      expect.arrayContaining(['health', 'projects', 'runs', 'twin', 'approvals', 'compliance', 'harness', 'chat']),
    );
    const bom = page.locator('.opblock', { has: page.locator('[data-path="/v1/bom"]') });
    await expect.poll(() => bom.locator('.opblock-summary-description').innerText()).toBe('BOM list');
    expect(problems).toEqual([]);
  });

  it('shows the import form with its file part', async () => {
    const op = page.locator('#operations-twin-post_v1_twin_import');
    await op.locator('.opblock-summary').click();
    await expect
      .poll(() => op.locator('.opblock-body').innerText(), { timeout: 10_000 })
      .toMatch(/multipart\/form-data/);
    const body = await op.locator('.opblock-body').innerText();
    expect(body).toMatch(/file/);
    expect(body).toMatch(/wp_type/);
    await screenshot(page, 'api-docs-import');
  });

  it('tries GET /health from the page and shows the gateway answer', async () => {
    const op = page.locator('#operations-health-get_health');
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();
    const code = op.locator('.live-responses-table tbody .response-col_status').first();
    await expect.poll(() => code.innerText(), { timeout: 15_000 }).toBe('200');
    expect(await op.locator('.live-responses-table .microlight').first().innerText()).toMatch(/"tool_count": 97/);
    expect(problems).toEqual([]);
  });
});
