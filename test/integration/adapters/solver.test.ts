import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimFieldPayloadSchema, SolverFieldBuiltSchema } from '../../../contracts/simulation.ts';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

/** Accuracy acceptance (issue 5) with the real CalculiX: the medium cantilever, coarse modal and thermal runs. */
const ws = tempWorkspace('solver-ws-');
let t: TestNode;
beforeAll(async () => {
  for (const f of ['beam_medium.inp.gz', 'beam_coarse.inp']) copyFixture(ws.root, f);
  t = await startTestNode({
    roles: 'tools,adapter:solver',
    env: { SERVICE_REQUEST_TIMEOUT_MS: '300000', SERVICE_WORKSPACE: ws.root },
  });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

const run = (tool: string, args: Record<string, unknown>) =>
  okData(callTool(t.node.broker, `solver.${tool}`, args, {}));
const within = (value: number, expected: number, percent: number) =>
  expect((Math.abs(value - expected) / Math.abs(expected)) * 100).toBeLessThanOrEqual(percent);
const payloadOf = (field: { base64: string }) =>
  SimFieldPayloadSchema.parse(JSON.parse(zlib.gunzipSync(Buffer.from(field.base64, 'base64')).toString('utf8')));

describe('static cantilever, medium mesh (20,135 nodes)', () => {
  let fea: Record<string, any>;
  beforeAll(async () => {
    fea = await run('run_fea', {
      mesh_file: 'beam_medium.inp',
      load_case: 'tip load 1000 N',
      analysis_type: 'static_stress',
      material: 'steel',
      fixed_node_set: 'FIXED',
      load_node_set: 'LOAD',
      load_force_n: [0, 0, -1000],
    });
  }, 300_000);

  it('deflects the tip within 1 % of P L^3 / (3 E I) = 7.619 mm, with the reaction balancing the load', () => {
    const tip = -fea.load_set_mean_displacement_mm[2];
    within(tip, 7.619, 1);
    expect(tip).toBeCloseTo(7.58, 2);
    expect(fea.reaction_force_n[2]).toBeCloseTo(1000, 0);
    expect(fea).toMatchObject({
      analysis_type: 'static_stress',
      mesh_elements: 11711,
      mesh_nodes: 20135,
      warnings: [],
    });
    expect(fea.max_von_mises).toEqual({ EALL: fea.max_von_mises_mpa });
    expect(fea.max_von_mises_mpa).toBeCloseTo(593.2, 0);
    expect(fea.solver_time).toBeGreaterThan(0);
  });

  it('has a bending stress at x = 50 within 1 % of 450 MPa (cross_check_cantilever_beam measuring the .frd)', async () => {
    const check = await run('cross_check_cantilever_beam', {
      length_mm: 200,
      width_mm: 20,
      height_mm: 10,
      force_n: 1000,
      material: 'steel',
      station_mm: 50,
      frd_path: fea.result_file,
      tolerance_percent: 1,
    });
    expect(check.analytical).toMatchObject({
      tip_deflection_mm: 7.619,
      bending_stress_at_station_mpa: 450,
      root_bending_stress_mpa: 600,
    });
    within(check.measured.top_fibre_stress_mpa, 450, 1);
    within(-check.measured.bottom_fibre_stress_mpa, 450, 1);
    expect(check.passed).toBe(true);
    expect(check.comparisons.map((c: { quantity: string }) => c.quantity)).toEqual([
      'tip_deflection_mm',
      'bending_stress_at_station_mpa',
    ]);
  });

  it('carries the field object: the workspace file holds the base64 bytes, a valid payload whose ranges and peak are the full field', () => {
    const field = SolverFieldBuiltSchema.parse(fea.field);
    const onDisk = fs.readFileSync(path.join(ws.root, field.file));
    expect(onDisk.equals(Buffer.from(field.base64, 'base64'))).toBe(true);
    expect(fea.output_files).toContain(field.file);
    const p = payloadOf(field);
    expect(p.analysis_type).toBe('static_stress');
    expect(p.fields.von_mises!.max).toBe(Number(fea.max_von_mises_mpa.toPrecision(4)));
    expect(p.fields.von_mises!.peak.position).toEqual(
      fea.max_von_mises_position_mm.map((x: number) => Number(x.toPrecision(6))),
    );
    expect(p.fields.displacement_magnitude!.max).toBeCloseTo(7.585, 3);
    expect(field).toMatchObject({
      vertex_count: 2215,
      triangle_count: 4426,
      decimated: false,
      source_triangle_count: 4426,
      quantities: ['von_mises', 'displacement_magnitude'],
    });
    expect(p.positions.length / 3).toBe(2215);
    expect(p.markers).toEqual([
      expect.objectContaining({ kind: 'fixture', label: 'FIXED (fixed)', bbox: { min: [0, 0, 0], max: [0, 20, 10] } }),
      expect.objectContaining({ kind: 'load', label: 'LOAD (force)', vector: [0, 0, -1000], unit: 'N' }),
    ]);
  });
});

describe('modal and thermal runs, coarse mesh', () => {
  it('finds the first frequency within 1 % of 208.9 Hz, with a mode-1 shape field and no von Mises', async () => {
    const modal = await run('run_fea', {
      mesh_file: 'beam_coarse.inp',
      load_case: 'free vibration',
      analysis_type: 'modal',
      num_modes: 3,
    });
    within(modal.first_frequency_hz, 208.9, 1);
    expect(modal.frequencies_hz).toHaveLength(3);
    expect(modal.frequencies_hz[1]).toBeCloseTo(416.4, 0);
    const p = payloadOf(modal.field);
    expect(Object.keys(p.fields)).toEqual(['displacement_magnitude']);
    expect(p.fields.displacement_magnitude!.label).toContain('Mode 1');
    const check = await run('cross_check_cantilever_frequency', {
      length_mm: 200,
      width_mm: 20,
      height_mm: 10,
      material: 'steel',
      frd_path: modal.result_file,
      tolerance_percent: 1,
    });
    expect(check.analytical.first_frequency_hz).toBeCloseTo(208.88, 1);
    expect(check.passed).toBe(true);
  }, 120_000);

  it('holds the tip at 120 C with 5 W through the 200 mm bar (T = 20 + P L / (k A)), the power as a uniform face flux', async () => {
    const th = await run('run_thermal', {
      mesh_file: 'beam_coarse.inp',
      material: 'steel',
      heat_source_node_set: 'LOAD',
      power_dissipation_w: 5,
      sink_node_set: 'FIXED',
      sink_temp_c: 20,
    });
    expect(th.max_temperature_c).toBeCloseTo(120, 1);
    expect(th.min_temperature_c).toBeCloseTo(20, 3);
    expect(th.heat_source_mean_temperature_c).toBeCloseTo(120, 1);
    expect(th.heat_input).toMatchObject({ faces: 8, area_mm2: 200, flux_mw_mm2: 25 });
    const p = payloadOf(th.field);
    expect(p.displacement).toEqual([]);
    expect(p.fields.temperature).toMatchObject({ min: 20, max: 120 });
    const check = await run('cross_check_thermal_steady_state', {
      length_mm: 200,
      cross_section_area_mm2: 200,
      material: 'steel',
      power_w: 5,
      frd_path: th.result_file,
      tolerance_percent: 1,
    });
    expect(check).toMatchObject({ analytical: { hot_end_temperature_c: 120 }, passed: true });
  }, 120_000);
});

describe('mesh convergence', () => {
  it('calls the four-point max-stress series "not converged" and names the fixture-edge singularity', async () => {
    const points = [
      { element_size_mm: 2.6, max_von_mises_mpa: 593.2, element_count: 11711 },
      { element_size_mm: 10, max_von_mises_mpa: 584.1, element_count: 430 },
      { element_size_mm: 1.1, max_von_mises_mpa: 777.0 },
      { element_size_mm: 1.6, max_von_mises_mpa: 683.5 },
    ];
    const rec = await run('check_mesh_convergence', { points });
    expect(rec.converged).toBe(false);
    expect(rec.points.map((p: { element_size_mm: number }) => p.element_size_mm)).toEqual([10, 2.6, 1.6, 1.1]);
    expect(rec.changes.map((c: { percent_change: number }) => c.percent_change)).toEqual([1.56, 15.22, 13.68]);
    expect(rec.recommendation).toContain('fixture edge');
    const tip = await run('check_mesh_convergence', {
      points: [7.556, 7.58, 7.582, 7.583].map((v, k) => ({
        element_size_mm: [10, 2.6, 1.6, 1.1][k],
        max_von_mises_mpa: v,
      })),
    });
    expect(tip).toMatchObject({ converged: true });
    expect(tip.recommendation).toMatch(/^converged/);
  });
});
