import { z } from 'zod';
import { CheckMeshConvergenceInputSchema, MeshConvergenceRecordSchema } from '../../../contracts/simulation.ts';
import { defineTool } from '../kit/tool.ts';
import { convergenceRecord } from './convergence.ts';

/** `solver.check_mesh_convergence`: the spec's mesh convergence record from max von Mises at several element sizes. */
export const checkMeshConvergenceTool = defineTool({
  name: 'check_mesh_convergence',
  title: 'Judge mesh convergence',
  description:
    'Given max von Mises at two or more element sizes (points: element_size_mm, max_von_mises_mpa, optional element_count), returns the mesh convergence record: ' +
    'points coarse to fine, percent changes, converged (last change within tolerance_percent, default 5) and a recommendation that names a stress singularity when the peak keeps rising.',
  input: CheckMeshConvergenceInputSchema.extend({ tolerance_percent: z.number().positive().default(5) }),
  output: MeshConvergenceRecordSchema,
  handler: async (a) => convergenceRecord(a.points, a.tolerance_percent),
});
