import fs from 'node:fs';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimFieldPayloadSchema, type SimFieldPayload } from '../../../contracts/simulation.ts';
import { copyFixture, SIM_FIXTURES, tempWorkspace } from '../../support/sim-fixtures.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

/** extract_results on the solved fixtures (compared with the reference payloads), validate_mesh, and the field cap. */
const ws = tempWorkspace('solver-res-');
let t: TestNode;
let capped: TestNode;
beforeAll(async () => {
  for (const f of [
    'beam_coarse.inp',
    'beam_coarse.frd',
    'beam_coarse_static2.frd.gz',
    'beam_coarse_modal.frd.gz',
    'beam_coarse_thermal.frd',
    'beam_medium.frd.gz',
    'beam_medium.inp.gz',
  ])
    copyFixture(ws.root, f);
  t = await startTestNode({
    roles: 'tools,adapter:solver',
    env: { SERVICE_REQUEST_TIMEOUT_MS: '300000', SERVICE_WORKSPACE: ws.root },
  });
  capped = await startTestNode({
    roles: 'tools,adapter:solver',
    env: { SERVICE_REQUEST_TIMEOUT_MS: '300000', SERVICE_WORKSPACE: ws.root, SERVICE_SIM_FIELD_MAX_BYTES: '20000' },
  });
});
afterAll(async () => {
  await t.stop();
  await capped.stop();
  ws.remove();
});

const run = (tool: string, args: Record<string, unknown>, node = t) =>
  okData(callTool(node.node.broker, `solver.${tool}`, args));
const decode = (b64: string) =>
  SimFieldPayloadSchema.parse(JSON.parse(zlib.gunzipSync(Buffer.from(b64, 'base64')).toString('utf8')));
const reference = (name: string): SimFieldPayload =>
  JSON.parse(
    zlib.gunzipSync(fs.readFileSync(`${SIM_FIXTURES}/reference_payloads/${name}.field.json.gz`)).toString('utf8'),
  );
const ranges = (p: SimFieldPayload) =>
  Object.fromEntries(Object.entries(p.fields).map(([k, f]) => [k, { min: f!.min, max: f!.max, peak: f!.peak.value }]));

describe('extract_results against the reference payloads (same ranges, peaks, surface)', () => {
  it.each([
    ['beam_coarse.frd', 'beam_coarse', 'static_stress', 'beam_coarse.inp'],
    ['beam_coarse_static2.frd', 'beam_coarse_static2', 'static_stress', 'beam_coarse.inp'],
    ['beam_coarse_modal.frd', 'beam_coarse_modal', 'modal', 'beam_coarse.inp'],
    ['beam_coarse_thermal.frd', 'beam_coarse_thermal', 'thermal', 'beam_coarse.inp'],
    ['beam_medium.frd', 'beam_medium', 'static_stress', 'beam_medium.inp'],
  ])('%s', async (frd, ref, type, mesh) => {
    const r = await run('extract_results', { frd_path: frd, mesh_file: mesh });
    const mine = decode(r.field.base64);
    const theirs = reference(ref);
    expect(r.analysis_type).toBe(type);
    expect(mine.analysis_type).toBe(type);
    expect(ranges(mine)).toEqual(ranges(theirs));
    for (const [k, f] of Object.entries(theirs.fields)) {
      mine.fields[k as 'von_mises']!.peak.position.forEach((x, i) => expect(x).toBeCloseTo(f!.peak.position[i], 1));
    }
    expect([mine.positions.length, mine.indices.length]).toEqual([theirs.positions.length, theirs.indices.length]);
    expect(mine.indices.length / 3).toBe(2 * (mine.positions.length / 3) - 4); // closed surface
    expect(mine.bbox).toEqual(theirs.bbox);
    expect(mine.markers).toEqual([
      expect.objectContaining({
        kind: 'fixture',
        label: 'FIXED',
        bbox: theirs.markers[0].kind === 'fixture' ? theirs.markers[0].bbox : null,
      }),
    ]);
  });

  it('takes the last step of a two-step file (1000 N, not the 500 N of step 1)', async () => {
    const r = await run('extract_results', { frd_path: 'beam_coarse_static2.frd' });
    expect(r.step).toBe(2);
    expect(r.max_von_mises_mpa).toBeCloseTo(584.06, 1);
    expect(r.max_displacement_mm).toBeCloseTo(7.5617, 3);
    expect(r.warnings).toEqual([
      'no mesh_file (and no .inp beside the .frd): the field has no fixture or load markers',
    ]);
  });

  it('reads the markers from the .inp beside the .frd, and gives identical bytes (a stable SHA-256) for the same input', async () => {
    const a = await run('extract_results', { frd_path: 'beam_coarse.frd', load_force_n: [0, 0, -1000] });
    const b = await run('extract_results', { frd_path: 'beam_coarse.frd', load_force_n: [0, 0, -1000] });
    expect(a.field.sha256).toBe(b.field.sha256);
    expect(a.field.file).not.toBe(b.field.file);
    expect(a.load_set_mean_displacement_mm[2]).toBeCloseTo(-7.556, 3);
    expect(decode(a.field.base64).markers).toEqual([
      { kind: 'fixture', label: 'FIXED', position: [0, 10, 5], bbox: { min: [0, 0, 0], max: [0, 20, 10] } },
      { kind: 'load', label: 'LOAD', position: [200, 10, 5], vector: [0, 0, -1000], unit: 'N' },
    ]);
  });
});

describe('the field cap (SERVICE_SIM_FIELD_MAX_BYTES)', () => {
  it('simplifies the medium surface by vertex clustering until it fits 20,000 bytes, keeping the full-field range and peak', async () => {
    const r = await run('extract_results', { frd_path: 'beam_medium.frd', mesh_file: 'beam_medium.inp' }, capped);
    expect(r.field).toMatchObject({ decimated: true, source_triangle_count: 4426 });
    expect(r.field.size_bytes).toBeLessThanOrEqual(20000);
    expect(r.field.vertex_count).toBeLessThan(2215);
    const p = decode(r.field.base64);
    expect(p.decimation).toMatchObject({
      applied: true,
      source_triangle_count: 4426,
      cell_size_mm: expect.any(Number),
    });
    expect(p.fields.von_mises).toMatchObject({ max: 593.2, min: 5.267, peak: { value: 593.2 } });
    expect(Math.max(...p.fields.von_mises!.values)).toBeLessThan(593.2);
    const metrics = await capped.node.infra.metrics.registry.metrics();
    expect(metrics).toMatch(/service_sim_field_payload_total\{analysis_type="static_stress",outcome="decimated"\} 1/);
    expect(metrics).toMatch(/service_sim_field_payload_bytes_count\{analysis_type="static_stress"\} 1/);
  });
});

describe('validate_mesh', () => {
  it('reports the tet shape measure of the coarse and medium meshes (2.67 / 1.84 and 4.05 / 1.54)', async () => {
    const coarse = await run('validate_mesh', { mesh_file: 'beam_coarse.inp' });
    expect(coarse).toMatchObject({
      valid: true,
      nodes: 955,
      elements: 430,
      element_types: { C3D10: 430 },
      inverted_elements: 0,
      unused_nodes: 0,
      node_sets: { FIXED: 23, LOAD: 23 },
    });
    expect(coarse.aspect_ratio.max).toBeCloseTo(2.67, 2);
    expect(coarse.aspect_ratio.mean).toBeCloseTo(1.84, 2);
    const medium = await run('validate_mesh', { mesh_file: 'beam_medium.inp', max_aspect_ratio: 3 });
    expect(medium.aspect_ratio.max).toBeCloseTo(4.05, 2);
    expect(medium.aspect_ratio.mean).toBeCloseTo(1.54, 2);
    expect(medium.valid).toBe(false);
    expect(medium.elements_over_limit).toBeGreaterThan(0);
    expect(medium.issues[0]).toContain('exceed the aspect ratio limit 3');
  });
});
