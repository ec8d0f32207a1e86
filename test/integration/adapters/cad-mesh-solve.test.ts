import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createCadscriptAdapter } from '../../../actors/adapters/cadscript/cadscript.adapter.ts';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { Workspace } from '../../../actors/adapters/kit/workspace.ts';
import { generateMeshTool } from '../../../actors/adapters/kit/mesh/generate-mesh.tool.ts';
import { createSolverAdapter } from '../../../actors/adapters/solver/solver.adapter.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { startActors } from '../../support/actors.ts';
import { tempWorkspace } from '../../support/sim-fixtures.ts';

/** The chain of issue 5 up to the solve: cadscript.create_parametric (the beam) → cadkernel.generate_mesh → solver.run_fea. */
const ws = tempWorkspace('cad-mesh-');
let h: BrokerHandle;
beforeAll(async () => {
  const cadkernel = createAdapterService({
    id: 'cadkernel',
    version: 'test',
    capability: 'cad',
    tools: (infra) => [generateMeshTool({ workspace: new Workspace(infra.config.SERVICE_WORKSPACE!) })],
  });
  h = await startActors([createCadscriptAdapter, cadkernel, createSolverAdapter], { SERVICE_WORKSPACE: ws.root });
}, 120_000);
afterAll(async () => {
  await h.broker.stop();
  ws.remove();
});

const ok = async (adapter: string, tool: string, args: Record<string, unknown>) => {
  const r: ToolResult = await call(
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
  if (r.status !== 'success') throw new Error(JSON.stringify(r.error));
  return r.data as Record<string, any>;
};

describe('CAD to mesh to solve', () => {
  it('meshes the cadscript beam and solves it: tip deflection within 1.5 % of beam theory with the faces named by generate_mesh', async () => {
    const beam = await ok('cadscript', 'create_parametric', {
      shape_type: 'beam',
      parameters: { length: 200, width: 20, height: 10 },
      output_path: 'beam.step',
    });
    const mesh = await ok('cadkernel', 'generate_mesh', { file_path: beam.cad_file, element_size_mm: 5 });
    near(mesh.mesh_bbox_mm.max, [200, 20, 10]);
    const face = (axis: number, sign: number) =>
      Object.entries(mesh.surface_sets as Record<string, { normal: number[] | null }>).find(
        ([, f]) => f.normal && f.normal[axis] * sign > 0.99,
      )![0];
    const fea = await ok('solver', 'run_fea', {
      mesh_file: mesh.mesh_file,
      load_case: 'tip 1000 N',
      analysis_type: 'static_stress',
      material: 'steel',
      fixed_node_set: face(0, -1),
      load_node_set: face(0, 1),
      load_force_n: [0, 0, -1000],
    });
    expect(Math.abs(-fea.load_set_mean_displacement_mm[2] - 7.619) / 7.619).toBeLessThan(0.015);
    expect(fea.warnings).toEqual([]);
  }, 180_000);
});

function near(a: number[], b: number[]) {
  a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 3));
}
