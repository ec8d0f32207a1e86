import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimFieldPayload } from '../../../contracts/simulation.ts';
import {
  launchChromium,
  openPage,
  screenshot,
  seriousA11yViolations,
  startDashboardNode,
  type DashboardNode,
} from '../../support/browser.ts';
import { writeStep, SIM_FIXTURES } from '../../support/sim-fixtures.ts';
import { createProjectHttp, recordSimResult } from '../../support/sim-results.ts';

/**
 * /sim and /files in Chromium against a real node (PGlite). The result is recorded the way a remote agent records
 * one (a held twin.record_document over MCP HTTP, approved through the approvals API) with the medium beam's field
 * from the shared fixtures (a real CalculiX solve: 2,215 surface vertices); the solver's peak 593.22 MPa is the
 * recorded max_von_mises_mpa. The CAD model is a STEP box made by gmsh, imported with POST /v1/twin/import.
 */
const FIELD = `${SIM_FIXTURES}/reference_payloads/beam_medium.field.json.gz`;
const gz = fs.readFileSync(FIELD);
const payload = JSON.parse(zlib.gunzipSync(gz).toString('utf8')) as SimFieldPayload;

let node: DashboardNode;
let browser: Browser;
let project: string;
let withField: string;
let bare: string;
let model: string;
let tmp: string;

beforeAll(async () => {
  node = await startDashboardNode();
  browser = await launchChromium();
  project = await createProjectHttp(node.url, 'Viewer beam');
  bare = (
    await recordSimResult(node.url, { projectId: project, name: 'hand calc', summary: { max_von_mises_mpa: 600 } })
  ).node_id;
  withField = (
    await recordSimResult(node.url, {
      projectId: project,
      name: 'beam 1000 N (medium mesh)',
      field: { base64: gz.toString('base64') },
      summary: { max_von_mises_mpa: 593.22, max_displacement_mm: 7.5854, load_case: '1000 N at the tip' },
    })
  ).node_id;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'viewer-step-'));
  const step = writeStep(tmp, 'bracket', 'Box(1) = {0, 0, 0, 60, 30, 8};\nCylinder(2) = {30, 15, 8, 0, 0, 20, 6};');
  const form = new FormData();
  form.set('file', new Blob([fs.readFileSync(path.join(tmp, step))]), 'bracket.step');
  form.set('project_id', project);
  const res = await fetch(`${node.url}/v1/twin/import`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  model = ((await res.json()) as { node_id: string }).node_id;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await node?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
}, 120_000);

/** Pixels of the canvas (read in the page through toDataURL) that differ from its corner pixel (the clear colour). */
async function drawnPixels(page: Page, testId: string): Promise<{ drawn: number; total: number; url: string }> {
  return page.evaluate(async (id) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid="${id}"]`)!;
    const url = canvas.toDataURL('image/png');
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let drawn = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 12) drawn++;
    }
    return { drawn, total: d.length / 4, url };
  }, testId);
}

/** Pixels that differ between two PNG data URLs of the same size. */
async function changedPixels(page: Page, a: string, b: string): Promise<number> {
  return page.evaluate(
    async ([x, y]) => {
      const read = async (u: string) => {
        const img = new Image();
        img.src = u;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, c.width, c.height).data;
      };
      const [p, q] = [await read(x), await read(y)];
      let n = 0;
      for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) > 24) n++;
      return n;
    },
    [a, b],
  );
}

const frames = (page: Page, id = 'field-canvas') =>
  page.getByTestId(id).evaluate((c) => Number((c as HTMLCanvasElement).dataset.frames));

describe('/sim', () => {
  it('draws the field coloured by von Mises with its legend, the solver peak and a deformation control', async () => {
    const { context, page } = await openPage(browser, node.url);
    try {
      await page.goto(`/sim?project=${project}&result=${withField}`);
      await expect.poll(() => frames(page), { timeout: 60_000 }).toBeGreaterThan(0);
      const first = await drawnPixels(page, 'field-canvas');
      expect(first.drawn / first.total).toBeGreaterThan(0.03);

      const vm = payload.fields.von_mises!;
      const legend = page.getByTestId('field-legend');
      expect(Number(await legend.getAttribute('data-min'))).toBe(vm.min);
      expect(Number(await legend.getAttribute('data-max'))).toBe(vm.max);
      await expect.poll(() => legend.textContent()).toContain(`min ${vm.min} MPa`);
      expect(await legend.textContent()).toContain(`max ${vm.max} MPa`);
      expect(await page.getByTestId('field-peak').textContent()).toBe('peak 593.2 MPa');
      expect(await page.getByRole('row', { name: /hand calc/ }).count()).toBe(1);

      // A 10x deformation scale moves the free end well away from where it was drawn.
      const scaleInput = page.getByTestId('deformation-scale');
      const initial = Number(await scaleInput.inputValue());
      expect(initial).toBeGreaterThan(0);
      const before = await frames(page);
      await scaleInput.fill(String(initial * 10));
      await expect.poll(() => frames(page)).toBeGreaterThan(before);
      const deformed = await drawnPixels(page, 'field-canvas');
      expect(await changedPixels(page, first.url, deformed.url)).toBeGreaterThan(first.total * 0.005);
      await screenshot(page, 'sim-deformed');
      await scaleInput.fill(String(initial));

      // Colour by displacement: the legend follows the chosen scalar.
      await page.getByLabel('Colour by').selectOption('displacement_magnitude');
      const dm = payload.fields.displacement_magnitude!;
      await expect.poll(() => legend.getAttribute('data-max')).toBe(String(dm.max));
      expect(await page.getByTestId('field-peak').textContent()).toBe('peak 7.585 mm');

      // Keyboard: the focused canvas orbits with the arrow keys (a new frame, a different picture).
      const still = await drawnPixels(page, 'field-canvas');
      const n = await frames(page);
      await page.getByTestId('field-canvas').focus();
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => frames(page)).toBeGreaterThan(n);
      const turned = await drawnPixels(page, 'field-canvas');
      expect(await changedPixels(page, still.url, turned.url)).toBeGreaterThan(0);
      await expect(page.getByText(/arrows orbit/).count()).resolves.toBeGreaterThan(0);

      await page.getByLabel('Colour by').selectOption('von_mises');
      await page.keyboard.press('Home');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'sim');
    } finally {
      await context.close();
    }
  }, 300_000);

  it('says so for a result without a stored field, and /projects loads no three.js', async () => {
    const { context, page } = await openPage(browser, node.url);
    try {
      await page.goto(`/sim?result=${bare}`);
      await expect.poll(() => page.getByText(/field not stored/).count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await page.getByTestId('field-canvas').count()).toBe(0);
      const scripts: string[] = [];
      page.on('response', async (r) => {
        if (r.url().endsWith('.js')) scripts.push(await r.text().catch(() => ''));
      });
      await page.goto('/projects');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expect.poll(() => scripts.length).toBeGreaterThan(0);
      expect(scripts.some((s) => s.includes('WebGLRenderer'))).toBe(false);
    } finally {
      await context.close();
    }
  }, 300_000);
});

describe('/files', () => {
  it('lists the imported CAD file with a download and previews the committed model in 3D', async () => {
    const { context, page } = await openPage(browser, node.url);
    try {
      await page.goto(`/files?project=${project}`);
      const row = page.getByRole('row', { name: /bracket\.step/ });
      await row.waitFor({ timeout: 30_000 });
      const href = await row.getByRole('link', { name: /Download/ }).getAttribute('href');
      expect(href).toBe(`/v1/twin/nodes/${model}/file`);
      expect((await fetch(`${node.url}${href}`)).status).toBe(200);
      await row.getByRole('link', { name: /Preview/ }).click();
      await expect.poll(() => frames(page, 'model-canvas'), { timeout: 120_000 }).toBeGreaterThan(0);
      await page.getByTestId('model-size').waitFor();
      const drawn = await drawnPixels(page, 'model-canvas');
      expect(drawn.drawn / drawn.total).toBeGreaterThan(0.02);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'files');
    } finally {
      await context.close();
    }
  }, 300_000);
});
