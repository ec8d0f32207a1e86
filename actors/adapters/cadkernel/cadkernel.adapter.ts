import { z } from 'zod';
import type { Infra } from '../../../brokers/infra.ts';
import { createCadAdapter, kernelRun, PropertiesOutSchema, type CadToolDeps } from '../kit/cad/common.ts';
import { fileTools } from '../kit/cad/file.tools.ts';
import { configureEngines } from '../kit/sandbox.ts';
import { defineTool } from '../kit/tool.ts';
import { generateMeshTool } from '../kit/mesh/generate-mesh.tool.ts';
import { sessionTools } from './session.tools.ts';

/** `cadkernel.describe_step_file`: parts with names and colours, units, schema and properties of a STEP file. */
function describeStepTool(deps: CadToolDeps) {
  return defineTool({
    name: 'describe_step_file',
    title: 'Describe a STEP file',
    description:
      "Read a STEP file from the workspace: schema, units (converted to mm), parts (name and colour from the file, [r,g,b] 0-1 or null) with volume, area, bounding box and centre of mass each, and the whole model's properties, all in the global frame.",
    input: z.object({ file_path: z.string().min(1) }),
    output: PropertiesOutSchema.extend({
      part_count: z.number().int(),
      parts: z.array(z.looseObject({ name: z.string(), color: z.array(z.number()).nullable() })),
    }),
    handler: async (a, tc) => {
      const input = await deps.workspace.resolveForRead(a.file_path, 'file_path');
      const r = await kernelRun(tc, (signal) => deps.pool().run('describeStep', { input }, { signal }));
      return { file_path: a.file_path, ...r };
    },
  });
}

/**
 * The `cadkernel` adapter (TOOLS.md): 6 stateless file tools (create_parametric, boolean_operation, get_properties,
 * export_geometry, describe_step_file, generate_mesh) and the 27 session tools served by the cadsessions actor.
 * generate_mesh runs gmsh in the engine sandbox (kit/sandbox.ts); without bwrap that one tool fails with
 * TOOL_UNAVAILABLE naming bubblewrap while the kernel tools stay healthy.
 */
export const createCadkernelAdapter = (infra: Infra) => {
  configureEngines(infra.config);
  return cadkernelAdapter(infra);
};

const cadkernelAdapter = createCadAdapter({
  id: 'cadkernel',
  version: '0.1.0',
  capability: 'cad',
  tools: (deps) => [
    ...fileTools(deps),
    describeStepTool(deps),
    generateMeshTool({ workspace: deps.workspace }),
    ...sessionTools(deps),
  ],
});
