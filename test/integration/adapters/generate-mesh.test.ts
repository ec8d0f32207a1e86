import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { generateMeshTool } from '../../../actors/adapters/kit/mesh/generate-mesh.tool.ts';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { createSolverAdapter } from '../../../actors/adapters/solver/solver.adapter.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { startActors } from '../../support/actors.ts';
import { tempWorkspace, writeStep } from '../../support/sim-fixtures.ts';

/** A 100 x 40 x 10 plate with a 10 mm through hole. */
const PLATE =
  'Box(1) = {0, 0, 0, 100, 40, 10};\nCylinder(2) = {50, 20, -1, 0, 0, 12, 5};\nBooleanDifference{ Volume{1}; Delete; }{ Volume{2}; Delete; }';

const ws = tempWorkspace('mesh-ws-');
let h: BrokerHandle;
beforeAll(async () => {
  writeStep(ws.root, 'plate', PLATE);
  writeStep(ws.root, 'moved', 'Box(1) = {50, -20, 5, 30, 20, 10};');
  fs.writeFileSync(path.join(ws.root, 'junk.step'), 'not a step file\n');
  const cadkernel = createAdapterService({
    id: 'cadkernel',
    version: 'test',
    capability: 'cad',
    tools: (infra) => [generateMeshTool({ workspace: new Workspace(infra.config.SERVICE_WORKSPACE!) })],
  });
  h = await startActors([cadkernel, createSolverAdapter], { SERVICE_WORKSPACE: ws.root });
});
afterAll(async () => {
  await h.broker.stop();
  ws.remove();
});

const invoke = (adapter: string, tool: string, args: Record<string, unknown>): Promise<ToolResult> =>
  call(
    h.broker,
    adapterActions(adapter).invoke,
    {
      tool_id: `${adapter}.${tool}`,
      arguments: args,
      call_id: crypto.randomUUID(),
      timeout_ms: 120_000,
      caller: { kind: 'stdio', transport: 'stdio' },
    },
    { timeout: 130_000 },
  );
const ok = async (p: Promise<ToolResult>) => {
  const r = await p;
  if (r.status !== 'success') throw new Error(JSON.stringify(r.error));
  return r.data as Record<string, any>;
};
const near = (a: number[], b: number[], d = 1e-3) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], -Math.log10(d)));

describe('cadkernel.generate_mesh (gmsh, second-order tets for CalculiX)', () => {
  let mesh: Record<string, any>;
  beforeAll(async () => {
    mesh = await ok(invoke('cadkernel', 'generate_mesh', { file_path: 'plate.step', element_size_mm: 4 }));
  }, 120_000);

  it('writes only C3D10 volume elements and one node set per B-rep face', () => {
    expect(mesh).toMatchObject({
      element_type: 'C3D10',
      element_types: { C3D10: mesh.elements },
      coordinate_frame: 'twin',
      placement_baked: true,
      element_size_mm: 4,
    });
    const inp = fs.readFileSync(path.join(ws.root, mesh.mesh_file), 'utf8');
    expect(inp).not.toMatch(/CPS|T3D/);
    expect([...inp.matchAll(/^\*NSET, NSET=(Face\d+)$/gm)].map((m) => m[1]).sort()).toEqual(
      Object.keys(mesh.surface_sets).sort(),
    );
    expect(Object.keys(mesh.surface_sets)).toHaveLength(7);
    near([...mesh.mesh_bbox_mm.min, ...mesh.mesh_bbox_mm.max], [0, 0, 0, 100, 40, 10]);
  });

  it('names each face with bbox, centroid, area and outward normal', () => {
    const faces = Object.values(mesh.surface_sets) as {
      area_mm2: number;
      normal: number[] | null;
      centroid_mm: number[];
      planar: boolean;
      bbox_mm: { min: number[] };
    }[];
    const end = faces.find((f) => f.normal && f.normal[0] < -0.99)!;
    expect(end.area_mm2).toBeCloseTo(400, 3);
    near(end.centroid_mm, [0, 20, 5]);
    expect(end.planar).toBe(true);
    const top = faces.find((f) => f.normal && f.normal[2] > 0.99)!;
    expect(top.area_mm2 / (4000 - Math.PI * 25)).toBeCloseTo(1, 2); // the hole is a polygon, a little smaller than the circle
    near(top.bbox_mm.min, [0, 0, 10]);
    const hole = faces.find((f) => f.normal === null)!;
    expect(hole.planar).toBe(false);
    expect(hole.area_mm2 / (Math.PI * 10 * 10)).toBeGreaterThan(0.97);
    const total = faces.reduce((s, f) => s + f.area_mm2, 0);
    expect(total / (2 * (4000 - Math.PI * 25) + 2 * 1000 + 2 * 400 + Math.PI * 100)).toBeCloseTo(1, 2);
  });

  it('feeds solver.run_fea: a face clamped, the opposite face loaded, in the twin frame', async () => {
    const sets = Object.entries(mesh.surface_sets) as [string, { normal: number[] | null }][];
    const fixed = sets.find(([, f]) => f.normal && f.normal[0] < -0.99)![0];
    const loaded = sets.find(([, f]) => f.normal && f.normal[0] > 0.99)![0];
    const fea = await ok(
      invoke('solver', 'run_fea', {
        mesh_file: mesh.mesh_file,
        load_case: 'end load',
        analysis_type: 'static_stress',
        material: 'aluminium_6061',
        fixed_node_set: fixed,
        load_node_set: loaded,
        load_force_n: [0, 0, -100],
      }),
    );
    // Beam theory without the hole: P L^3 / (3 E I) = 100 * 100^3 / (3 * 68900 * 3333.3) = 0.145 mm; the hole adds a little.
    expect(-fea.load_set_mean_displacement_mm[2]).toBeGreaterThan(0.14);
    expect(-fea.load_set_mean_displacement_mm[2]).toBeLessThan(0.17);
    expect(fea.reaction_force_n[2]).toBeCloseTo(100, 0);
    expect(fea.field.vertex_count).toBeGreaterThan(0);
  }, 120_000);
});

describe('generate_mesh input', () => {
  it('keeps a placed part where it is (twin frame), and refuses a non-STEP, a missing file and a path outside', async () => {
    const moved = await ok(invoke('cadkernel', 'generate_mesh', { file_path: 'moved.step' }));
    near([...moved.mesh_bbox_mm.min, ...moved.mesh_bbox_mm.max], [50, -20, 5, 80, 0, 15]);
    expect(moved.element_size_mm).toBe(1.5);
    const junk = await invoke('cadkernel', 'generate_mesh', { file_path: 'junk.step' });
    expect(junk).toMatchObject({
      status: 'error',
      error: { type: 'TOOL_EXECUTION_ERROR', message: expect.stringContaining('not a STEP file') },
    });
    expect(await invoke('cadkernel', 'generate_mesh', { file_path: 'none.step' })).toMatchObject({
      status: 'error',
      error: { type: 'INVALID_ARGUMENTS' },
    });
    expect(await invoke('cadkernel', 'generate_mesh', { file_path: '../../etc/passwd' })).toMatchObject({
      status: 'error',
      error: { type: 'INVALID_ARGUMENTS' },
    });
  }, 120_000);
});
