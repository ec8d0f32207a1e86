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
 * Issue 28 point 1 in Chromium (decision 0100): revising another run's item is a choice shown before the run starts
 * and recorded. Run 1 (started over HTTP) owns its intent item, committed
 * at its first gate; on the new-run page an unknown key is listed in the
 * confirmation, the server's 422 shows and no run starts; with run 1's key the confirmation names run 1 as its owner,
 * the start sends `revise`, and the new run's page says "This run revises KEY (owned by run <run 1>)".
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

const GOAL = 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2';
const runPosts = (sent: { method: string; url: string }[]) =>
  sent.filter((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/runs');

describe('revise on the new-run page and the run page', () => {
  it('shows the keys with their owners before start, shows a 422 and starts nothing, and the run shows revise', async () => {
    const project = await httpJson(`${node.url}/v1/projects`, 'POST', { name: 'revise-e2e', description: '' });
    expect(project.status, JSON.stringify(project.json)).toBe(201);
    const projectId = String(project.json.id);
    const first = await httpJson(`${node.url}/v1/runs`, 'POST', {
      design_flow: 'mech_v1',
      project_id: projectId,
      goal: GOAL,
    });
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    const run1 = String(first.json.id);
    // Its intent phase records the intent item (owned by run 1) and parks at the intent gate.
    await expect
      .poll(async () => (await httpJson(`${node.url}/v1/runs/${run1}`, 'GET')).json.gate?.phase ?? null, {
        timeout: 120_000,
      })
      .toBe('intent');
    const view1 = await httpJson(`${node.url}/v1/runs/${run1}`, 'GET');
    const ref = String(view1.json.phases[0].deliverables[0].ref);
    const key = ref.replace(/@\d+$/, '');
    expect(key).toMatch(/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/);
    // Approving the gate commits it: a run's draft is its own, so only then may another run revise it by choice.
    const approve = await httpJson(`${node.url}/v1/approvals/gate:${run1}/decision`, 'POST', {
      decision: 'approve',
      reason: 'ok',
    });
    expect(approve.status, JSON.stringify(approve.json)).toBeLessThan(300);
    await expect
      .poll(async () => (await httpJson(`${node.url}/v1/twin/items/${key}/revisions`, 'GET')).json.head_ref ?? null, {
        timeout: 60_000,
      })
      .toBe(`${key}@1`);

    const { page, sent } = await openPage(browser, node.url);
    await page.goto(`/runs/new?flow=mech_v1&project_id=${encodeURIComponent(projectId)}`);
    await page.getByLabel('What to design, in words').fill(GOAL);
    await page.getByLabel(/Revise items of earlier runs/).fill('CAD-NO-SUCH-ITEM-1');
    await page.getByRole('button', { name: 'Preview intent' }).click();
    const plan = page.getByTestId('revise-plan-list');
    await expect
      .poll(() => plan.textContent(), { timeout: 30_000 })
      .toMatch(/The run will revise CAD-NO-SUCH-ITEM-1 \(owner not known: .*CAD-NO-SUCH-ITEM-1/);

    // Hostile: an unknown key is the server's 422; its message shows, the page stays, nothing started.
    await page.getByRole('button', { name: 'Start run' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 })
      .toMatch(/The run did not start: .*CAD-NO-SUCH-ITEM-1.*not an item of project/);
    expect(new URL(page.url()).pathname).toBe('/runs/new');
    expect(runPosts(sent)).toHaveLength(1);
    const listed = await httpJson(`${node.url}/v1/runs?project_id=${encodeURIComponent(projectId)}`, 'GET');
    expect(listed.json.runs.map((r: { id: string }) => r.id)).toEqual([run1]);

    // With run 1's key: the confirmation names its owner, and the start records it.
    await page.getByLabel(/Revise items of earlier runs/).fill(`${key}\n`);
    await expect
      .poll(() => plan.textContent(), { timeout: 30_000 })
      .toBe(`The run will revise ${key} (owned by run ${run1})`);
    expect(await seriousA11yViolations(page), 'new-run page with the revise confirmation').toEqual([]);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/run_/, { timeout: 30_000 });
    const run2 = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect(run2).not.toBe(run1);
    await expect
      .poll(() => page.getByTestId('run-revise-list').textContent(), { timeout: 30_000 })
      .toBe(`This run revises ${key} (owned by run ${run1})`);
    expect(await seriousA11yViolations(page), 'run page with revise').toEqual([]);
    await screenshot(page, 'run-revise');
    expect((await httpJson(`${node.url}/v1/runs/${run2}`, 'GET')).json.revise).toEqual([key]);

    // A run started without revise shows no such note.
    await page.goto(`/runs/${run1}`);
    await page.getByTestId('run-summary').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('run-revise').count()).toBe(0);
  }, 300_000);
});
