import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  launchChromium,
  openPage,
  screenshot,
  seriousA11yViolations,
  startDashboardNode,
  type DashboardNode,
} from '../../support/browser.ts';

/**
 * Issue 28 point 2 in Chromium (decision 0080): the run page's requirements table is the one evaluator's output. A
 * steel 1000 N bracket, approved over its hand calculation at feasibility, reaches the simulation gate on the real
 * engines: the table lists the failing stress first, and each requirement's status on the page is the status the
 * lifecycle view answers and the one the gate's findings state. The evaluator's table is also shown at the gates
 * themselves (decision 0080, amendment): in the approvals queue's gate item at the requirements, feasibility and
 * simulation gates, and in the run page's open-gate panel, every requirement, the blocking ones first.
 */
const GOAL = 'a steel cantilever bracket 200 x 20 x 10 mm carrying 1000 N at the tip, safety factor 2';

let node: DashboardNode;
let browser: Browser;
beforeAll(async () => {
  [node, browser] = await Promise.all([startDashboardNode(), launchChromium()]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await node?.stop();
});

const http = async (p: string, body?: unknown) => {
  const res = await fetch(`${node.url}${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
};

async function gateAt(runId: string, phase: string) {
  await expect
    .poll(async () => (await http(`/v1/runs/${runId}`)).json.gate?.phase ?? null, { timeout: 240_000 })
    .toBe(phase);
  return (await http(`/v1/runs/${runId}`)).json.gate;
}

/** The status a gate finding states for requirement `id` (pass when the gate has no finding for it). */
function findingStatus(findings: { message: string }[], id: string) {
  const f = findings.find((x) => x.message.includes(`: ${id} (`));
  if (!f) return 'pass';
  return f.message.startsWith('violated:') ? 'fail' : f.message.startsWith('stale:') ? 'stale' : 'not_verified';
}

/** Requirement and status of each row of a verdict table, in page order. */
const verdictRows = (rows: Locator) =>
  rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-requirement'), tr.getAttribute('data-status')]));

/**
 * The gate item's table in the approvals queue (/approvals?id=gate:<run>): the rows equal the item's `verdicts`
 * (every requirement, the evaluator's order) and the blocking ones come first. Answers the rows.
 */
async function queueTable(page: Page, runId: string) {
  const item = (await http(`/v1/approvals/gate:${runId}`)).json;
  const verdicts = item.verdicts as { id: string; status: string; blocking: boolean }[];
  expect(verdicts.length, JSON.stringify(item.detail)).toBeGreaterThan(0);
  const firstFree = verdicts.findIndex((v) => !v.blocking);
  if (firstFree >= 0) expect(verdicts.slice(firstFree).every((v) => !v.blocking)).toBe(true);
  await page.goto(`/approvals?id=${encodeURIComponent(`gate:${runId}`)}`);
  const rows = page.locator('[data-testid=approval-detail] [data-testid=gate-verdicts] tbody tr');
  await expect.poll(() => verdictRows(rows), { timeout: 30_000 }).toEqual(verdicts.map((v) => [v.id, v.status]));
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-blocking')))).toEqual(
    verdicts.map((v) => String(v.blocking)),
  );
  return verdictRows(rows);
}

describe('the run page shows the one evaluator', () => {
  it('lists the failing stress first at the simulation gate, each status as the lifecycle view and the gate say', async () => {
    const project = (await http('/v1/projects', { name: `Evaluator ${Date.now()}` })).json.id as string;
    const run = (await http('/v1/runs', { design_flow: 'mech_v1', project_id: project, goal: GOAL, start: true })).json;
    const { page, context } = await openPage(browser, node.url);
    for (const phase of ['intent', 'needs', 'requirements', 'feasibility', 'design']) {
      await gateAt(run.id, phase);
      // Every gate from the requirements on shows the evaluator's table in the approvals queue (decision 0080).
      if (phase === 'requirements' || phase === 'feasibility') await queueTable(page, run.id);
      const override = phase === 'feasibility' ? { override_reason: 'let the FEA show it' } : {};
      const r = await http(`/v1/runs/${run.id}/approval`, { decision: 'approve', reason: 'ok', ...override });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
    }
    const gate = await gateAt(run.id, 'simulation');
    const table = (await http(`/v1/runs/${run.id}/lifecycle`)).json.requirements as any[];
    expect(table[0]).toMatchObject({ metric: 'max_von_mises_mpa', verdict: 'fail' });

    await page.goto(`/runs/${run.id}`);
    const rows = page.locator('[data-testid=requirements] tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(table.length);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-requirement'), tr.getAttribute('data-status')]),
    );
    expect(shown).toEqual(table.map((r) => [r.id, r.verdict]));
    for (const r of table) expect(findingStatus(gate.findings, r.id), r.id).toBe(r.verdict);
    await expect.poll(() => rows.first().textContent()).toMatch(/max_von_mises_mpa.*fail/);
    // The open gate's panel on the same page: the same rows, the blocking failing stress first.
    const gateRows = page.locator('[data-testid=gate-panel] [data-testid=gate-verdicts] tbody tr');
    await expect.poll(() => verdictRows(gateRows), { timeout: 30_000 }).toEqual(table.map((r) => [r.id, r.verdict]));
    expect(await gateRows.first().getAttribute('data-blocking')).toBe('true');
    await expect.poll(() => gateRows.first().textContent()).toMatch(/max_von_mises_mpa.*blocking.*fail/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'run-requirements-evaluator');
    expect(await queueTable(page, run.id)).toEqual(table.map((r) => [r.id, r.verdict]));
    await screenshot(page, 'gate-verdicts-evaluator');
    await context.close();
  }, 600_000);
});
