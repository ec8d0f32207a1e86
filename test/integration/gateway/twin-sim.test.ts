import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { LoadCaseListSchema, SimResultListSchema } from '../../../contracts/simulation-views.ts';
import { ConstraintCreateResultSchema } from '../../../contracts/twin-forms.ts';
import { BomListSchema } from '../../../contracts/twin.ts';
import { getJson, postJson, rawGet } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const FIXTURES = `${SIM_FIXTURES}/reference_payloads`;
const STEP = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString('base64');
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const t = useTestNode({ realDb: true });

const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const tool = (project: string, name: string, args: Record<string, unknown>) =>
  okData(callTool(t.node.broker, `twin.${name}`, { project_id: project, ...args }));
const convergence = {
  points: [
    { element_size_mm: 2, max_von_mises_mpa: 30 },
    { element_size_mm: 1.5, max_von_mises_mpa: 31 },
  ],
  changes: [{ from_element_size_mm: 2, to_element_size_mm: 1.5, percent_change: 3.3 }],
  converged: true,
  recommendation: 'use 1.5 mm',
};

describe('simulation results over HTTP', () => {
  it("lists results with the spec's listing fields, the analysed geometry as a current ref that goes stale on a new revision", async () => {
    const p = await newProject('results');
    const geom = await tool(p, 'commit_geometry', { name: 'Beam', step_base64: STEP });
    const field = fs.readFileSync(`${FIXTURES}/beam_coarse.field.json.gz`);
    const withField = await tool(p, 'record_document', {
      document_type: 'simulation_result',
      name: 'beam static',
      summary: { max_von_mises_mpa: 31.5, max_displacement_mm: 0.12, load_case: 'tip load', meshStats: { nodes: 900 } },
      field_base64: field.toString('base64'),
      analysed_geometry_node_id: geom.node_id,
      load_case_spec: { force_n: 100, face: 'Surface6' },
      mesh_convergence: convergence,
    });
    const bare = await tool(p, 'record_document', {
      document_type: 'simulation_result',
      name: 'hand calc',
      summary: { max_von_mises_mpa: 29 },
    });

    const list = SimResultListSchema.parse((await getJson(`${t.url}/v1/simulation/results?project_id=${p}`)).body);
    expect(list.total).toBe(2);
    expect(list.results.map((r) => r.id)).toEqual([bare.node_id, withField.node_id]);
    const entry = list.results[1];
    expect(entry).toMatchObject({
      max_von_mises_mpa: 31.5,
      load_case: 'tip load',
      meshStats: { nodes: 900 },
      hasField: true,
      analysisType: 'static_stress',
      fieldContentHash: sha(field),
      fieldSizeBytes: field.length,
      analysedGeometry: {
        node_id: geom.node_id,
        revision: 1,
        key: geom.item_key,
        ref: `${geom.item_key}@1`,
        current: true,
      },
      loadCaseSpec: { force_n: 100, face: 'Surface6' },
      meshConvergence: convergence,
      stale: false,
    });
    expect(entry.fieldQuantities.sort()).toEqual(['displacement_magnitude', 'von_mises']);
    expect(entry.fieldRanges.von_mises.max).toBeGreaterThan(0);
    expect(entry.fixtures.length).toBeGreaterThan(0);
    expect(entry.loads.length).toBeGreaterThan(0);
    expect(list.results[0]).toMatchObject({
      hasField: false,
      analysisType: null,
      fieldQuantities: [],
      analysedGeometry: null,
      loadCaseSpec: null,
      meshConvergence: null,
    });

    await tool(p, 'commit_geometry', { name: 'Beam', step_base64: STEP });
    const after = SimResultListSchema.parse((await getJson(`${t.url}/v1/simulation/results?project_id=${p}`)).body)
      .results[1];
    expect(after).toMatchObject({ stale: true, analysedGeometry: { current: false } });
  });

  it("serves each stored field byte for byte with the spec's headers, 304 on a matching If-None-Match", async () => {
    const p = await newProject('fields');
    for (const name of ['beam_coarse', 'beam_coarse_thermal', 'beam_coarse_modal', 'beam_medium']) {
      const stored = fs.readFileSync(`${FIXTURES}/${name}.field.json.gz`);
      const r = await tool(p, 'record_document', {
        document_type: 'simulation_result',
        name,
        field_base64: stored.toString('base64'),
      });
      const res = await rawGet(`${t.url}/v1/simulation/results/${r.node_id}/field`);
      expect(res.status).toBe(200);
      expect(res.body.equals(stored)).toBe(true);
      expect(res.headers['content-type']).toBe('application/vnd.service.sim-field+json');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.etag).toBe(`"${sha(stored)}"`);
      expect(JSON.parse(zlib.gunzipSync(res.body).toString('utf8')).format).toBe('service.sim_field');
      for (const tag of [res.headers.etag!, `W/${res.headers.etag}`, `"other", ${res.headers.etag}`]) {
        const again = await rawGet(`${t.url}/v1/simulation/results/${r.node_id}/field`, { 'if-none-match': tag });
        expect(again.status).toBe(304);
        expect(again.body.length).toBe(0);
      }
      expect(
        (await rawGet(`${t.url}/v1/simulation/results/${r.node_id}/field`, { 'if-none-match': '"stale"' })).status,
      ).toBe(200);
    }
  });

  it('answers 404 "field not stored" for a result without a field, and 404 for unknown ids and other node types', async () => {
    const p = await newProject('no-field');
    const bare = await tool(p, 'record_document', {
      document_type: 'simulation_result',
      name: 'no field',
      summary: { max_von_mises_mpa: 1 },
    });
    const res = await getJson(`${t.url}/v1/simulation/results/${bare.node_id}/field`);
    expect(res.status).toBe(404);
    expect(ErrorBodySchema.parse(res.body).error.message).toBe('field not stored');
    const d = await tool(p, 'record_decision', { title: 'x', decision: 'y' });
    expect((await getJson(`${t.url}/v1/simulation/results/${d.node_id}/field`)).status).toBe(404);
    expect((await getJson(`${t.url}/v1/simulation/results/00000000-0000-4000-8000-000000000000/field`)).status).toBe(
      404,
    );
  });

  it('stores and lists reusable load cases by project', async () => {
    const p = await newProject('load-cases');
    const created = await postJson(`${t.url}/v1/simulation/load-cases`, {
      name: 'Tip load',
      project_id: p,
      spec: { loads: [{ face: 'Surface6', force_n: [0, 0, -100] }] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), name: 'Tip load', project_id: p });
    await postJson(`${t.url}/v1/simulation/load-cases`, { name: 'Unscoped' });
    const list = LoadCaseListSchema.parse((await getJson(`${t.url}/v1/simulation/load-cases?project_id=${p}`)).body);
    expect(list).toEqual({ total: 1, load_cases: [created.body] });
    const bad = await postJson(`${t.url}/v1/simulation/load-cases`, { spec: {} });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.issues[0].path).toBe('body.name');
  });
});

describe('BOM and constraint creation', () => {
  it("lists BOM lines and component selections in the spec's fields, leaving out selections a BOM line already lists", async () => {
    const p = await newProject('bom');
    await tool(p, 'record_component_selection', {
      name: 'MCU',
      mpn: 'STM32G031K8',
      manufacturer: 'ST',
      quantity: 1,
      specs: { category: 'ic', footprint: 'LQFP-32', unit_price: 1.9 },
    });
    await tool(p, 'record_component_selection', {
      name: 'Regulator',
      mpn: 'AP2112K-3.3',
      manufacturer: 'Diodes',
      quantity: 2,
    });
    const lines = [
      {
        designator: 'U1',
        mpn: 'STM32G031K8',
        manufacturer: 'ST',
        quantity: 1,
        unit_price: 2.1,
        currency: 'EUR',
        status: 'low_stock',
        category: 'ic',
      },
    ];
    const bom = await call(t.node.broker, T.writeDefinition, {
      project_id: p,
      item_type: 'bom',
      name: 'Main board BOM',
      properties: { lines },
    });
    const list = BomListSchema.parse((await getJson(`${t.url}/v1/bom?project_id=${p}`)).body);
    expect(list.total).toBe(2);
    expect(list.components[0]).toEqual({
      id: `${bom.item_key}#1`,
      designator: 'U1',
      partNumber: 'STM32G031K8',
      description: '',
      manufacturer: 'ST',
      quantity: 1,
      unitPrice: 2.1,
      priceStatus: 'priced',
      priceCurrency: 'EUR',
      status: 'low_stock',
      category: 'ic',
      projectId: p,
      footprint: null,
      datasheetUrl: null,
      purchaseUrl: null,
      imageUrl: null,
      cadModelUrl: null,
    });
    expect(list.components[1]).toMatchObject({
      partNumber: 'AP2112K-3.3',
      manufacturer: 'Diodes',
      quantity: 2,
      description: 'Regulator',
      // No record states its availability (decision 0070, amendment).
      status: 'unknown',
      unitPrice: null,
      priceStatus: 'unpriced',
      projectId: p,
    });
    expect(
      BomListSchema.parse((await getJson(`${t.url}/v1/bom?project_id=${await newProject('empty bom')}`)).body),
    ).toEqual({ components: [], total: 0, unpriced_count: 0, unknown_availability_count: 0, unscoped_count: 0 });
  });

  it("adds each created constraint to the project's constraint set as its next revision", async () => {
    const p = await newProject('constraints');
    const first = await postJson(`${t.url}/v1/twin/constraints`, {
      projectId: p,
      name: 'Stress',
      metric: 'max_von_mises_mpa',
      limit: 125,
      unit: 'MPa',
    });
    expect(first.status).toBe(201);
    const a = ConstraintCreateResultSchema.parse(first.body);
    expect(a).toMatchObject({ constraintId: 'C1', revision: 1 });
    const b = ConstraintCreateResultSchema.parse(
      (
        await postJson(`${t.url}/v1/twin/constraints`, {
          projectId: p,
          name: 'Mass',
          metric: 'mass_kg',
          limit: 2,
          operator: '<',
          severity: 'warning',
        })
      ).body,
    );
    expect(b).toMatchObject({ constraintId: 'C2', item_key: a.item_key, revision: 2 });
    const node = (await getJson(`${t.url}/v1/twin/nodes/${b.setWorkProductId}`)).body;
    expect(node.properties.constraints).toEqual([
      expect.objectContaining({
        id: 'C1',
        metric: 'max_von_mises_mpa',
        operator: '<=',
        limit: 125,
        unit: 'MPa',
        severity: 'error',
      }),
      expect.objectContaining({ id: 'C2', metric: 'mass_kg', operator: '<', limit: 2, severity: 'warning' }),
    ]);

    const q = await newProject('existing set');
    const set = await tool(q, 'record_constraint_set', {
      name: 'Limits',
      constraints: [{ metric: 'length_mm', limit: 200 }],
    });
    const c = ConstraintCreateResultSchema.parse(
      (await postJson(`${t.url}/v1/twin/constraints`, { projectId: q, name: 'Width', metric: 'width_mm', limit: 50 }))
        .body,
    );
    expect(c).toMatchObject({ constraintId: 'C2', item_key: set.item_key, revision: 2 });
  });

  it('refuses a constraint without a limit or with an unknown operator (422) and one for an unknown project (404)', async () => {
    const p = await newProject('bad constraints');
    const missing = await postJson(`${t.url}/v1/twin/constraints`, { projectId: p, name: 'x', metric: 'm' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.issues.map((i: { path: string }) => i.path)).toContain('body.limit');
    expect(
      (
        await postJson(`${t.url}/v1/twin/constraints`, {
          projectId: p,
          name: 'x',
          metric: 'm',
          limit: 1,
          operator: '~',
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await postJson(`${t.url}/v1/twin/constraints`, {
          projectId: '00000000-0000-4000-8000-000000000000',
          name: 'x',
          metric: 'm',
          limit: 1,
        })
      ).status,
    ).toBe(404);
  });
});
