import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchChromium,
  openPage,
  screenshot,
  seriousA11yViolations,
  startDashboardNode,
  type DashboardNode,
} from '../../support/browser.ts';
import { httpJson } from '../../support/http-raw.ts';

/**
 * The run page's Cancel control in Chromium against a real node (decision 0140): a run parked at its first gate, the
 * Cancel button refused without a reason (nothing sent), then sent with one; the page reads cancelled (status, the
 * ended note with the reason, verdict CANCELLED, every phase) without a reload, the control is gone, and the gate's
 * queue item is canceled.
 */
let node: DashboardNode;
let browser: Browser;
beforeAll(async () => {
  [node, browser] = await Promise.all([startDashboardNode(), launchChromium()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
});

const cancelPosts = (sent: { method: string; url: string }[]) =>
  sent.filter((r) => r.method === 'POST' && new URL(r.url).pathname.endsWith('/cancel'));

describe('cancelling a run from its page', () => {
  it('asks for a reason, cancels, and the page reads cancelled', async () => {
    const started = await httpJson(`${node.url}/v1/runs`, 'POST', {
      design_flow: 'mech_v1',
      goal: 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2',
    });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const id = String(started.json.id);
    // Parked at its first gate (the intent phase needs no engine): the gate's queue item is pending.
    await expect
      .poll(async () => (await httpJson(`${node.url}/v1/runs/${id}`, 'GET')).json.gate?.phase ?? null, {
        timeout: 120_000,
      })
      .toBe('intent');

    const { page, sent } = await openPage(browser, node.url);
    await page.goto(`/runs/${id}`);
    const form = page.getByRole('form', { name: 'Cancel the run' });
    await form.waitFor({ timeout: 60_000 });
    expect(await seriousA11yViolations(page), 'run page with the cancel control').toEqual([]);

    await form.getByRole('button', { name: 'Cancel run' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/A reason is required/);
    expect(cancelPosts(sent)).toEqual([]);

    await form.getByLabel('Reason (required)').fill('the load case changed');
    await form.getByRole('button', { name: 'Cancel run' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 30_000 }).toBe('cancelled');
    await expect
      .poll(() => page.getByTestId('run-ended').textContent(), { timeout: 30_000 })
      .toBe('Ended cancelled: the load case changed');
    await expect
      .poll(() => page.getByTestId('run-verdict-summary').textContent(), { timeout: 30_000 })
      .toMatch(/CANCELLED/);
    expect(await page.getByRole('form', { name: 'Cancel the run' }).count()).toBe(0);
    // The phase timeline: every phase the run had not finished reads cancelled.
    await expect
      .poll(() => page.locator('li[data-phase]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
      .toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);
    expect(cancelPosts(sent)).toHaveLength(1);
    await screenshot(page, 'run-cancelled');

    const run = await httpJson(`${node.url}/v1/runs/${id}`, 'GET');
    expect(run.json).toMatchObject({ status: 'cancelled', ended: { message: 'the load case changed' } });
    const item = await httpJson(`${node.url}/v1/approvals/gate:${id}`, 'GET');
    expect(item.json).toMatchObject({ status: 'canceled', allowed_decisions: [] });
  });
});
