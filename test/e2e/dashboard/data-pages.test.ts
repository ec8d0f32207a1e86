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
import { held, http, mcpClient, pendingToolApproval } from './data-pages.seed.ts';

/**
 * The data pages in Chromium against a real node seeded through its HTTP API: projects (create, rename), a project's
 * detail (runs, pending approvals with the unscoped count, twin items, BOM summary), sessions, knowledge, compliance
 * (coverage and the checklist of its requirements), the harness settings against the real /v1/harness routes, the BOM
 * with its totals and the twin (revisions, diff). Every route: no serious accessibility violation, and a screenshot.
 */
let node: DashboardNode;
let browser: Browser;
let projectId = '';
let sessionId = '';
let sourceId = '';
let itemKey = '';
let simId = '';
let suspectId = '';
const hanging = new AbortController();
const pendingIds: string[] = [];

beforeAll(async () => {
  [node, browser] = await Promise.all([
    startDashboardNode({ SERVICE_APPROVAL_HOLD_SECONDS: '900', SERVICE_HARNESS_ADMIN_TOKEN: 'admin-secret-1' }),
    launchChromium(),
  ]);
  const base = node.url;
  projectId = (
    await http(base, '/v1/projects', { body: { name: 'Bracket study', description: 'Wall bracket, 200 N' } })
  ).json.id;
  for (const [metric, limit, unit] of [
    ['max_von_mises_mpa', 180, 'MPa'],
    ['max_displacement_mm', 0.5, 'mm'],
  ] as const) {
    const c = await http(base, '/v1/twin/constraints', {
      body: { projectId, name: 'Bracket limits', metric, limit, unit },
    });
    expect(c.status, JSON.stringify(c.json)).toBe(201);
  }
  const run = await http(base, '/v1/runs', {
    body: { design_flow: 'mech_v1', project_id: projectId, goal: 'Size a wall bracket for 200 N' },
  });
  expect(run.status, JSON.stringify(run.json)).toBe(201);

  const call = await mcpClient(base);
  const seen = new Set<string>();
  await held(base, call, 'session.start', { title: 'Bracket sizing session', project_id: projectId }, seen);
  sessionId = (await http(base, `/v1/sessions?project_id=${projectId}`)).json.sessions[0].id;
  const log = { session_id: sessionId, kind: 'decision', message: 'Chose 6061-T6 aluminium plate' };
  await held(base, call, 'session.log_event', log, seen);
  await held(base, call, 'session.complete', { session_id: sessionId, summary: 'Plate sized at 6 mm.' }, seen);
  const text = 'The bracket carries 200 N at 120 mm.\n\nAluminium 6061-T6 yields at 276 MPa.';
  const ingest = { title: 'Bracket design notes', text, project_id: projectId, uri: 'file:///notes/bracket.md' };
  sourceId = (await held(base, call, 'knowledge.ingest', ingest, seen)).source.id;
  const parts = [
    { name: 'Mounting bolts', mpn: 'M6X20-A2', manufacturer: 'Wurth', quantity: 4, specs: { unit_price: 0.35 } },
    { name: 'Bracket plate', mpn: 'AL6061-PL6', manufacturer: 'Alcoa', quantity: 1, specs: { unit_price: 12.5 } },
    // No price source: shown as unpriced, never $0.00, and left out of the total (decision 0070).
    { name: 'Cable tie', mpn: 'CT-100', manufacturer: 'HellermannTyton', quantity: 2 },
  ];
  for (const p of parts)
    await held(base, call, 'twin.record_component_selection', { project_id: projectId, ...p }, seen);
  const sim = { project_id: projectId, document_type: 'simulation_result', name: 'Bracket static stress' };
  simId = (await held(base, call, 'twin.record_document', { ...sim, summary: { max_von_mises_mpa: 142.5 } }, seen))
    .node_id;
  // A result with a zero peak: recorded as suspect (decision 0073), shown so on /sim.
  const unloaded = { ...sim, name: 'Unloaded bracket', summary: { max_von_mises_mpa: 0 } };
  suspectId = (await held(base, call, 'twin.record_document', unloaded, seen)).node_id;
  // Left pending: one call of this project, one that records no project (the project's unscoped count).
  void call(
    'knowledge.ingest',
    { title: 'Pending notes', text: 'Awaiting a person.', project_id: projectId },
    hanging.signal,
  ).catch(() => undefined);
  void call('knowledge.ingest', { title: 'Loose notes', text: 'No project here.' }, hanging.signal).catch(
    () => undefined,
  );
  pendingIds.push((await pendingToolApproval(base, 'knowledge.ingest', seen)).id as string);
  pendingIds.push((await pendingToolApproval(base, 'knowledge.ingest', seen)).id as string);

  const view = (await http(base, `/v1/twin/current-view?project_id=${projectId}`)).json;
  itemKey = Object.values(view.by_type as Record<string, { key: string; name: string }[]>)
    .flat()
    .find((e) => e.name === 'Project constraints')!.key;
}, 300_000);

afterAll(async () => {
  // A person turns the two waiting calls down: a stopping node waits (bounded) for held calls in flight otherwise.
  for (const id of pendingIds)
    await http(node.url, `/v1/approvals/${encodeURIComponent(id)}/decision`, {
      body: { decision: 'reject', reason: 'the test is over' },
      headers: { 'X-Service-Surface': 'cli' },
    });
  hanging.abort();
  await browser?.close();
  await node?.stop();
}, 120_000);

async function check(page: Page, name: string) {
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, name);
}
const approvalsSent = (sent: SentRequest[]) => sent.filter((r) => new URL(r.url).pathname.startsWith('/v1/approvals'));

describe('dashboard data pages', () => {
  it('creates and renames a project on /projects and opens it; shows a project with what it holds', async () => {
    const { page, context, sent } = await openPage(browser, node.url);
    await page.goto('/projects');
    await page.getByRole('row', { name: /Bracket study/ }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Fan housing');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    await page.getByTestId('project-created').getByText('Fan housing').waitFor();
    await page.getByRole('button', { name: 'Rename Fan housing' }).click();
    await page.getByLabel('New name for Fan housing').fill('Fan housing v2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Fan housing v2' }).waitFor();
    const listed = (await http(node.url, '/v1/projects')).json.projects as { id: string; name: string }[];
    const fan = listed.find((p) => p.name === 'Fan housing v2');
    expect(fan).toBeDefined();
    await check(page, 'projects');

    await page.getByRole('link', { name: 'Fan housing v2' }).click();
    await page.getByRole('heading', { level: 1, name: 'Project Fan housing v2' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/${fan!.id}`);
    await page.getByText('No runs in this project.').waitFor();

    await page.goto(`/projects/${projectId}`);
    await page.getByRole('heading', { level: 1, name: 'Project Bracket study' }).waitFor();
    await page.getByTestId('project-runs').getByText('Size a wall bracket for 200 N').waitFor();
    const approvals = page.getByTestId('project-approvals');
    await approvals.getByRole('link', { name: 'Run knowledge.ingest' }).waitFor();
    const pending = await http(node.url, `/v1/approvals?status=pending&project_id=${projectId}`, {
      headers: { 'X-Service-Surface': 'cli' },
    });
    expect(pending.json.unscoped_count).toBe(1);
    // The header, the run's open gate and the held ingest of this project; the unscoped one only counted.
    expect(pending.json.items).toHaveLength(2);
    await expect.poll(() => approvals.getByRole('row').count()).toBe(3);
    await approvals
      .getByTestId('unscoped-note')
      .getByText(/^1 pending approvals? records? no project/)
      .waitFor();
    await page.getByTestId('project-twin').getByRole('link', { name: itemKey }).waitFor();
    await page.getByTestId('bom-summary').getByText('$13.90').waitFor();
    const simLink = page.getByTestId('project-sim').getByRole('link', { name: 'Bracket static stress' });
    expect(await simLink.getAttribute('href')).toBe(`/sim?result=${simId}`);
    await page.getByTestId('project-sim').getByRole('cell', { name: '142.5' }).waitFor();
    await check(page, 'project');
    expect(approvalsSent(sent).length).toBeGreaterThan(0);
    for (const r of approvalsSent(sent)) expect(r.headers['x-service-surface']).toBe('dashboard');
    await context.close();
  }, 300_000);

  it('lists sessions by project and shows a session with its event timeline', async () => {
    const { page, context } = await openPage(browser, node.url);
    await page.goto(`/sessions?project=${projectId}`);
    await page.getByRole('link', { name: 'Bracket sizing session' }).waitFor();
    expect(await page.getByLabel('Project').inputValue()).toBe(projectId);
    await check(page, 'sessions');
    await page.getByRole('link', { name: 'Bracket sizing session' }).click();
    await page.getByTestId('session-events').getByText('Chose 6061-T6 aluminium plate').waitFor();
    await page.getByTestId('session-detail').getByText('Plate sized at 6 mm.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sessions/${sessionId}`);
    await check(page, 'session');
    await context.close();
  }, 300_000);

  it('lists knowledge sources, filters them and shows a source with its text', async () => {
    const { page, context } = await openPage(browser, node.url);
    await page.goto('/knowledge');
    await page.getByRole('link', { name: 'Bracket design notes' }).waitFor();
    await page.getByLabel('Filter by title, address or type').fill('no such title');
    await page.getByText('0 match the filter').waitFor();
    await page.getByLabel('Filter by title, address or type').fill('bracket');
    await check(page, 'knowledge');
    await page.getByRole('link', { name: 'Bracket design notes' }).click();
    await page
      .getByTestId('source-text')
      .getByText(/yields at 276 MPa/)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/knowledge/sources/${sourceId}`);
    await check(page, 'knowledge-source');
    await context.close();
  }, 300_000);

  it("shows a project's compliance coverage and checklist; the harness settings list its providers", async () => {
    const { page, context } = await openPage(browser, node.url);
    await page.goto('/compliance');
    await page.getByText('Choose a project to see its compliance').waitFor();
    await page.getByLabel('Project').selectOption(projectId);
    // Its two constraints and the two ISO 2768 items of its mech_v1 run; the bare result pins no geometry: 0 %.
    const coverage = page.getByTestId('compliance-coverage');
    await coverage.getByText('0%').waitFor();
    expect(await coverage.locator('dd').first().textContent()).toBe('4');
    await page.getByRole('cell', { name: 'max_von_mises_mpa <= 180 MPa', exact: true }).waitFor();
    await check(page, 'compliance');

    await page.goto('/settings');
    const harness = page.getByTestId('harness-settings');
    await harness.getByRole('cell', { name: 'anthropic' }).waitFor();
    expect(await harness.getByRole('heading', { level: 2 }).textContent()).toBe('Model harness');
    expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => !/^service\.(gateway|theme)$/.test(k))),
    ).toEqual([]);
    await check(page, 'settings-harness');
    await context.close();
  }, 300_000);

  it('shows the BOM with quantities and totals, and the twin item with revisions and a diff (light and dark)', async () => {
    const { page, context } = await openPage(browser, node.url);
    await page.goto(`/bom?project=${projectId}`);
    const bom = page.getByTestId('bom-table');
    await bom
      .getByRole('row', { name: /M6X20-A2/ })
      .getByText('$1.40')
      .waitFor();
    expect(await page.getByTestId('bom-total').textContent()).toBe('$13.90 + 1 unpriced');
    const tie = bom.getByRole('row', { name: /CT-100/ });
    expect(await tie.getByTestId('bom-unpriced').textContent()).toBe('unpriced');
    expect(await tie.textContent()).not.toContain('$0.00');
    // No record states its availability: unknown, never a default 'available' (decision 0070, amendment).
    expect(await tie.getByTestId('bom-availability').textContent()).toBe('unknown');
    expect(await bom.getByText('available', { exact: true }).count()).toBe(0);
    await check(page, 'bom');

    await page.goto(`/sim?project=${projectId}&result=${suspectId}`);
    const flagged = page.getByRole('row', { name: /Unloaded bracket/ }).getByTestId('sim-suspect');
    expect(await flagged.getAttribute('title')).toMatch(/max_von_mises_mpa is 0/);
    expect(await page.getByTestId('sim-suspect-reasons').textContent()).toMatch(/max_von_mises_mpa is 0/);
    expect(
      await page
        .getByRole('row', { name: /Bracket static stress/ })
        .getByTestId('sim-suspect')
        .count(),
    ).toBe(0);
    await page.goto(`/twin?project=${projectId}`);
    await page.getByTestId('twin-items').getByRole('button', { name: itemKey }).click();
    await page.getByTestId('twin-revisions').getByTitle(`${itemKey}@2`).waitFor();
    await page.getByTestId('twin-diff-summary').getByText(`${itemKey}@1`).waitFor();

    await page.getByText(/No baselines in this project/).waitFor();
    await check(page, 'twin');
    await page.emulateMedia({ colorScheme: 'dark' });
    await check(page, 'twin-dark');
    await context.close();
  }, 300_000);

  it('sends a harness key and the admin token to the gateway and keeps neither', async () => {
    // SPEC Authentication rule 7 from the page's side (sent with the request, field cleared, nothing stored) against
    // the gateway's real harness routes, which require the admin token this node sets.
    const { page, context } = await openPage(browser, node.url);
    const got: { method: string; path: string; body: unknown; admin: string | undefined }[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/v1/harness/'))
        got.push({ method: r.method(), path, body: r.postDataJSON(), admin: r.headers()['x-service-admin-token'] });
    });
    await page.goto('/settings');
    const harness = page.getByTestId('harness-settings');
    await harness.getByRole('cell', { name: 'anthropic' }).waitFor();
    await harness.getByLabel(/^Admin token/).fill('admin-secret-1');
    const credential = harness.getByRole('form', { name: 'Provider credential' });
    await credential.getByLabel('Provider').selectOption('anthropic');
    await credential.getByLabel(/^API key/).fill('sk-test-key-123');
    await credential.getByLabel(/^API key/).press('Enter');
    await credential.getByText('Credential stored on the gateway for anthropic.').waitFor();
    expect(await credential.getByLabel(/^API key/).inputValue()).toBe('');
    const selection = harness.getByRole('form', { name: 'Model selection' });
    await selection.getByLabel('Provider').selectOption('anthropic');
    await selection.getByLabel('Model').fill('claude-test');
    await selection.getByRole('button', { name: 'Use this model' }).click();
    await selection.getByText('Selected anthropic:claude-test.').waitFor();

    const writes = got.filter((g) => g.method !== 'GET');
    expect(writes).toEqual([
      {
        method: 'POST',
        path: '/v1/harness/credentials',
        body: { provider: 'anthropic', api_key: 'sk-test-key-123' },
        admin: 'admin-secret-1',
      },
      {
        method: 'PUT',
        path: '/v1/harness/selection',
        body: { provider: 'anthropic', model: 'claude-test' },
        admin: 'admin-secret-1',
      },
    ]);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain('sk-test-key-123');
    expect(stored).not.toContain('admin-secret-1');
    const served = await (await fetch(`${node.url}/v1/harness/providers`)).json();
    const anthropic = served.providers.find((p: { id: string }) => p.id === 'anthropic');
    expect(anthropic).toMatchObject({ configured: true, credentials: [{ last4: '-123' }] });
    expect(JSON.stringify(served)).not.toContain('sk-test-key-123');
    await check(page, 'settings-harness-served');
    await context.close();
  }, 300_000);
});
