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

/**
 * Issue 28 point 4 in Chromium: gate decisions sent from the CLI surface, over the plain HTTP API and from the
 * dashboard each show where they came from on the run page and in the approvals history, every decision of every
 * phase, oldest first (decision 0061). The first two are sent over HTTP as those clients send them.
 */
const GOAL = 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2';

let node: DashboardNode;
let browser: Browser;
beforeAll(async () => {
  [node, browser] = await Promise.all([startDashboardNode(), launchChromium()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
});

const http = async (p: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${node.url}${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
};

async function gateAt(runId: string, phase: string) {
  await expect
    .poll(async () => (await http(`/v1/approvals/gate:${runId}`)).json.detail?.phase ?? null, { timeout: 120_000 })
    .toBe(phase);
}

describe('the run page and the approvals history say who decided and from where', () => {
  it('shows every gate decision with its channel, oldest first, on /runs/:id and in the gate item', async () => {
    const project = (await http('/v1/projects', { name: `History ${Date.now()}` })).json.id as string;
    const run = (await http('/v1/runs', { design_flow: 'mech_v1', project_id: project, goal: GOAL, start: true })).json;
    const approve = { decision: 'approve', reason: 'ok' };
    await gateAt(run.id, 'intent');
    expect((await http(`/v1/approvals/gate:${run.id}/decision`, approve, { 'x-service-surface': 'cli' })).status).toBe(
      200,
    );
    await gateAt(run.id, 'needs');
    expect((await http(`/v1/runs/${run.id}/approval`, approve)).status).toBe(200);
    await gateAt(run.id, 'requirements');

    const { page, context } = await openPage(browser, node.url);
    await page.goto(`/runs/${run.id}`);
    const form = page.getByRole('form', { name: /^Decide: Requirements sign-off:/ });
    await form.getByRole('button', { name: 'Approve', exact: true }).click();
    await form.waitFor({ state: 'detached', timeout: 60_000 });
    const rows = page.locator('[data-testid=decisions] tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    const text = await rows.allTextContents();
    expect(text[0]).toMatch(/intent.*approve.*local:dashboard \(cli\).*cli.*no sign-in/);
    expect(text[1]).toMatch(/needs.*approve.*local:dashboard \(unknown\).*api.*no sign-in/);
    expect(text[2]).toMatch(/requirements.*approve.*local:dashboard \(dashboard\).*dashboard.*no sign-in/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'run-decision-history');

    // The approvals history: the run's gate item lists the same decisions, oldest first.
    await page.goto(`/approvals?status=all&id=${encodeURIComponent(`gate:${run.id}`)}`);
    const history = page.locator('[data-testid=decisions] tbody tr');
    await expect.poll(() => history.count(), { timeout: 30_000 }).toBe(3);
    expect((await history.allTextContents()).map((r) => /^(intent|needs|requirements)/.exec(r)?.[1])).toEqual([
      'intent',
      'needs',
      'requirements',
    ]);
    expect(await history.locator('[data-testid=sent-from]').allTextContents()).toEqual([
      expect.stringMatching(/^cli/),
      expect.stringMatching(/^api/),
      expect.stringMatching(/^dashboard/),
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'approvals-decision-history');
    await context.close();
  }, 600_000);
});
