import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  openPage,
  screenshot,
  seriousA11yViolations,
  startDashboardNode,
  type DashboardNode,
  type SentRequest,
} from '../../support/browser.ts';

/**
 * A whole mech_v1 run driven from the dashboard in Chromium against a real node (embedded, PGlite, the real CAD
 * kernel, gmsh and CalculiX): a project created on /runs/new, the intent previewed, the run started, its six gates
 * approved (some on /runs/:id, some on /approvals) while the run page follows the run without a reload, refusals
 * shown in words (a reject without its reason; a decision on a gate that moved on: 409), COMPLETED_VERIFIED on the
 * run page and the list, every approvals request with the dashboard surface header and every decision with If-Match,
 * and the result opened in /sim (the canvas draws frames with more than one colour, the peak is the solver's).
 */
const GOAL = 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2';
const GATES: [phase: string, gate: string, where: 'run' | 'queue'][] = [
  ['intent', 'Intent sign-off', 'run'],
  ['needs', 'Needs sign-off', 'run'],
  ['requirements', 'Requirements sign-off', 'queue'],
  ['feasibility', 'Preliminary Feasibility', 'queue'],
  ['design', 'Mechanical design review', 'run'],
  ['simulation', 'V&V sign-off', 'run'],
];
const PHASE_WAIT = 300_000;

let node: DashboardNode;
let browser: Browser;
let workspace: string;
beforeAll(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'dash-flow-ws-'));
  [node, browser] = await Promise.all([startDashboardNode({ SERVICE_WORKSPACE: workspace }), launchChromium()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
  if (workspace) await fs.rm(workspace, { recursive: true, force: true });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The decision form of the gate named `gate` (its aria-label is "Decide: <item title>"). */
const formOf = (page: Page, gate: string) => page.getByRole('form', { name: new RegExp(`^Decide: ${escape(gate)}:`) });
const decisionPosts = (sent: SentRequest[]) =>
  sent.filter((r) => r.method === 'POST' && /\/v1\/approvals\/[^/]+\/decision$/.test(new URL(r.url).pathname));

async function approveIn(page: Page, gate: string) {
  const form = formOf(page, gate);
  await form.waitFor({ timeout: PHASE_WAIT });
  await form.getByRole('button', { name: 'Approve', exact: true }).click();
  await form.waitFor({ state: 'detached', timeout: 60_000 });
}

async function a11yAndShot(page: Page, name: string) {
  expect(await seriousA11yViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

describe('a mech_v1 run from the dashboard', () => {
  it('starts, is approved gate by gate on /runs/:id and /approvals, and ends COMPLETED_VERIFIED', async () => {
    const run = await openPage(browser, node.url);
    const queue = await openPage(browser, node.url);
    const page = run.page;

    // /runs/new: a new project, the request, the intent preview (no blocking unknowns), start.
    await page.goto('/runs/new');
    await page.getByRole('heading', { level: 1, name: 'New run' }).waitFor();
    await a11yAndShot(page, 'flow-run-new-empty');
    const projectName = `Bracket ${Date.now()}`;
    await page.getByLabel('New project name').fill(projectName);
    await page.getByRole('button', { name: 'Create project' }).click();
    const projectSelect = page.getByLabel('Run in project');
    await expect.poll(() => projectSelect.inputValue()).not.toBe('');
    const projectId = await projectSelect.inputValue();
    expect(await projectSelect.locator('option:checked').textContent()).toBe(projectName);
    await page.getByLabel('Design flow').selectOption('mech_v1');
    await page.getByLabel('What to design, in words').fill(GOAL);
    expect(await page.getByRole('button', { name: 'Start run' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Preview intent' }).click();
    const preview = page.getByTestId('intent-preview');
    await preview.waitFor();
    expect(await page.getByTestId('blocking-unknowns').textContent()).toBe('No blocking unknowns.');
    await preview.getByText('carries 100 N at the tip').first().waitFor();
    await preview.getByText('structural steel (yield 250 MPa)', { exact: true }).first().waitFor();
    await a11yAndShot(page, 'flow-run-new-preview');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/run_[^/]+$/);
    const runId = new URL(page.url()).pathname.split('/').at(-1)!;

    // /runs/:id at the intent gate: a reject without its reason is refused in words before anything is sent.
    const intentForm = formOf(page, 'Intent sign-off');
    await intentForm.waitFor({ timeout: PHASE_WAIT });
    await page.getByTestId('gate-name').getByText('Intent sign-off').waitFor();
    await a11yAndShot(page, 'flow-run-intent-gate');
    const postsBefore = decisionPosts(run.sent).length;
    await intentForm.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByRole('alert').getByText('A reason is required to reject').waitFor();
    expect(decisionPosts(run.sent).length).toBe(postsBefore);
    await approveIn(page, 'Intent sign-off');

    // The needs gate shown in both places: approved on the run page, then the queue's held decision is refused (409).
    await queue.page.goto(`/approvals?project_id=${projectId}&id=${encodeURIComponent(`gate:${runId}`)}`);
    const stale = formOf(queue.page, 'Needs sign-off');
    await stale.waitFor({ timeout: PHASE_WAIT });
    await queue.page
      .getByTestId('approvals-table')
      .getByRole('link', { name: /^Needs sign-off:/ })
      .waitFor();
    expect(await queue.page.getByTestId('unscoped-note').count()).toBe(0);
    await a11yAndShot(queue.page, 'flow-approvals');
    // Someone starts deciding in the queue (the form now holds this gate) while the run page approves it.
    await stale.getByLabel(/^Reason/).fill('looks complete');
    await approveIn(page, 'Needs sign-off');
    await queue.page.getByTestId('moved-on').waitFor({ timeout: 30_000 });
    await stale.getByRole('button', { name: 'Approve', exact: true }).click();
    const refusal = queue.page.getByRole('alert').filter({ hasText: 'Decision refused' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Conflict: .*another state of this item.*Nothing was recorded/);
    await screenshot(queue.page, 'flow-approvals-refused');
    await queue.page.getByRole('button', { name: 'Show the current state' }).click();

    // The rest: requirements and feasibility in the queue, design and simulation on the run page (never reloaded).
    for (const [phase, gate, where] of GATES.slice(2)) {
      await approveIn(where === 'run' ? page : queue.page, gate);
      await expect
        .poll(() => page.locator(`[data-testid=decisions] tbody tr`).count(), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(GATES.findIndex(([p]) => p === phase) + 1);
    }
    await page.getByTestId('run-verdict-summary').getByText('COMPLETED_VERIFIED').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('run-status').textContent()).toBe('completed');
    const decided = await page.locator('[data-testid=decisions] tbody tr').allTextContents();
    expect(decided).toHaveLength(6);
    for (const row of decided) expect(row).toMatch(/approve.*local:dashboard \(dashboard\)/);
    await expect.poll(() => page.locator('[data-testid=baselines] tbody tr').count()).toBe(6);
    await a11yAndShot(page, 'flow-run-completed');

    // /runs lists it with its verdict.
    await page.goto(`/runs?project_id=${projectId}`);
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.getByText('COMPLETED_VERIFIED').waitFor();
    await a11yAndShot(page, 'flow-runs');

    // Every approvals request carried the surface header; every decision named the item state with If-Match.
    const sent = [...run.sent, ...queue.sent].filter((r) => new URL(r.url).pathname.startsWith('/v1/approvals'));
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.filter((r) => r.headers['x-service-surface'] !== 'dashboard')).toEqual([]);
    const decisions = decisionPosts([...run.sent, ...queue.sent]);
    expect(decisions.length).toBe(7); // six approvals plus the refused stale one
    expect(decisions.filter((r) => !/^"[^"]+"$/.test(r.headers['if-match'] ?? ''))).toEqual([]);
    expect(decisionPosts(queue.sent).length).toBe(3);
    await queue.context.close();

    // The result in /sim: the canvas draws frames with more than one colour; the peak is the solver's.
    const results = (await (await fetch(`${node.url}/v1/simulation/results?project_id=${projectId}`)).json()) as {
      results: { id: string; max_von_mises_mpa?: number; hasField: boolean }[];
    };
    const result = results.results[0];
    expect(result?.hasField).toBe(true);
    const peak = Number(result.max_von_mises_mpa);
    expect(peak).toBeGreaterThan(45);
    await page.goto(`/sim?result=${encodeURIComponent(result.id)}`);
    const canvas = page.locator('[data-testid=field-canvas][data-frames]');
    await canvas.waitFor({ timeout: 60_000 });
    await expect
      .poll(async () => Number(await canvas.getAttribute('data-frames')), { timeout: 60_000 })
      .toBeGreaterThan(0);
    await page.getByTestId('field-legend').waitFor();
    const png = await canvas.screenshot();
    expect(await distinctColours(page, png.toString('base64'))).toBeGreaterThan(16);
    const peakText = (await page.getByTestId('field-peak').textContent()) ?? '';
    expect(peakText).toContain('MPa');
    const shown = Number(/(\d+(?:\.\d+)?)/.exec(peakText)?.[1]);
    expect(Math.abs(shown - peak) / peak).toBeLessThan(0.005);
    await screenshot(page, 'flow-sim-result');
    await run.context.close();
  }, 1_500_000);
});

describe('a run that fails its simulation gate', () => {
  it('shows the finding, offers no approve, and takes a rework with its target and a reject with its reason', async () => {
    const post = async (p: string, body: unknown) =>
      (await fetch(`${node.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json())) as { id: string };
    const project = await post('/v1/projects', { name: `Overloaded ${Date.now()}` });
    const goal = GOAL.replace('100 N', '1000 N');
    const started = await post('/v1/runs', { design_flow: 'mech_v1', project_id: project.id, goal, start: true });
    const { page, context, sent } = await openPage(browser, node.url);
    await page.goto(`/runs/${started.id}`);
    for (const [phase, gate] of GATES.slice(0, 5)) {
      if (phase !== 'feasibility') {
        await approveIn(page, gate);
        continue;
      }
      // The hand calculation (600 MPa vs 125 MPa) blocks feasibility: no plain approve, an override with its reason.
      const feasibility = formOf(page, gate);
      await feasibility.waitFor({ timeout: PHASE_WAIT });
      await page
        .getByTestId('gate-panel')
        .getByText(/600 MPa exceeds the allowable 125 MPa/)
        .waitFor();
      expect(await feasibility.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
      await feasibility.getByLabel(/^Override reason/).fill('let the FEA show it');
      await feasibility.getByRole('button', { name: 'Approve over the findings', exact: true }).click();
      await feasibility.waitFor({ state: 'detached', timeout: 60_000 });
    }

    const form = formOf(page, 'V&V sign-off');
    await form.waitFor({ timeout: PHASE_WAIT });
    // The finding (the verdict table below it says the same number in its own row).
    await page
      .getByTestId('gate-panel')
      .getByRole('cell', { name: /^violated: REQ-STRESS.*gives 5\d\d(\.\d+)? MPa/ })
      .waitFor();
    expect(await form.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    await form.getByLabel('Reason (required to reject, retry, rework)').fill('stress too high: make it deeper');
    await form.getByLabel('Rework from phase').selectOption('design');
    await form.getByRole('button', { name: 'Rework', exact: true }).click();
    const rework = page.locator('[data-testid=decisions] tbody tr').filter({ hasText: 'rework' });
    await rework.waitFor();
    expect(await rework.textContent()).toMatch(/simulation.*rework.*design.*stress too high: make it deeper/);

    // The design phase runs again (its gate too) and the same simulation gate comes back: rejected, the run ends.
    await approveIn(page, 'Mechanical design review');
    const again = formOf(page, 'V&V sign-off');
    await again.waitFor({ timeout: PHASE_WAIT });
    await again.getByLabel(/^Reason/).fill('not this time');
    await again.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByTestId('run-ended').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('run-status').textContent()).toBe('rejected');
    await a11yAndShot(page, 'flow-run-rejected');
    const decisions = decisionPosts(sent);
    expect(decisions.map((r) => r.headers['x-service-surface'])).toEqual(Array(8).fill('dashboard'));
    expect(decisions.every((r) => /^"[^"]+"$/.test(r.headers['if-match'] ?? ''))).toBe(true);
    await context.close();
  }, 900_000);
});

/** Decodes a PNG in the page (no PNG library here) and counts its distinct RGB values. */
function distinctColours(page: Page, b64: string): Promise<number> {
  return page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < px.length; i += 4) seen.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    return seen.size;
  }, b64);
}
