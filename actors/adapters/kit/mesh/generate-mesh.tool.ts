import path from 'node:path';
import { z } from 'zod';
import type { SimFieldPool } from '../../../../workers/simfield/pool.ts';
import { meshStep } from '../engines/gmsh.ts';
import { createToolSimFieldPool } from '../engines/simfield.ts';
import { existingFile } from '../existing-file.ts';
import { OverwriteArg } from '../output-args.ts';
import { defineTool, InvalidArgumentsError } from '../tool.ts';
import type { Workspace } from '../workspace.ts';

/** What `generateMeshTool` needs: the shared workspace, and the worker pool (one of its own is made when not given). */
export interface GenerateMeshDeps {
  workspace: Workspace;
  pool?: SimFieldPool;
}

/** Arguments of `cadkernel.generate_mesh`. */
export const GenerateMeshInputSchema = z.object({
  file_path: z.string().min(1).describe('workspace path of the STEP to mesh'),
  element_size_mm: z
    .number()
    .positive()
    .optional()
    .describe('largest element edge (default: 1/20 of the longest bounding-box side)'),
  min_element_size_mm: z.number().positive().optional(),
  curved_edges: z
    .boolean()
    .default(false)
    .describe('curved mid-side nodes that follow the geometry (falls back to straight ones on a negative Jacobian)'),
  output_path: z
    .string()
    .min(1)
    .optional()
    .describe("workspace path of the .inp to write (default: the call's scratch folder)"),
  overwrite: OverwriteArg,
});

/**
 * `cadkernel.generate_mesh` (TOOLS.md, SPEC rule 9): a STEP on the workspace to second-order tetrahedra (C3D10) for
 * CalculiX with only volume elements in the deck and one node set per B-rep face (`Face<n>`), named with bbox_mm,
 * centroid_mm, area_mm2 and outward normal; the mesh is in the twin's frame with placements baked. The cadkernel
 * adapter lists it; signature `generateMeshTool(deps: { workspace: Workspace; pool?: SimFieldPool }): ToolDefinition`.
 */
export function generateMeshTool(deps: GenerateMeshDeps) {
  let pool = deps.pool;
  return defineTool({
    name: 'generate_mesh',
    title: 'Mesh a STEP for the solver',
    description:
      'Mesh a STEP (file_path on the workspace) into second-order tetrahedra (C3D10) for solver.run_fea, with one node set per B-rep face (Face1, Face2, ...). ' +
      'Returns mesh_file, counts, surface_sets (per face: bbox_mm, centroid_mm, area_mm2, outward normal) to pick fixed_node_set and load_node_set, mesh_bbox_mm, coordinate_frame "twin" and placement_baked.',
    input: GenerateMeshInputSchema,
    handler: async (a, tc) => {
      const stepPath = await existingFile(deps.workspace, a.file_path, 'file_path');
      if (a.min_element_size_mm && a.element_size_mm && a.min_element_size_mm > a.element_size_mm) {
        throw new InvalidArgumentsError('min_element_size_mm is larger than element_size_mm');
      }
      if (a.output_path !== undefined && !a.output_path.endsWith('.inp'))
        throw new InvalidArgumentsError('output_path must end in .inp', { output_path: a.output_path });
      if (a.output_path !== undefined) await deps.workspace.resolveOutput(a.output_path, 'output_path', a.overwrite);
      const dir = await deps.workspace.scratch('cadkernel.generate_mesh');
      // the mesh is written in the call's scratch folder and moved to output_path through the workspace's confinement
      const scratchMesh = path.join(dir, 'mesh.inp');
      pool ??= createToolSimFieldPool({ maxThreads: 1 });
      tc.progress(0.1, 'meshing with gmsh');
      const m = await meshStep({
        stepPath,
        dir,
        meshPath: scratchMesh,
        elementSizeMm: a.element_size_mm,
        minElementSizeMm: a.min_element_size_mm,
        curved: a.curved_edges,
        signal: tc.signal,
        pool,
      });
      const meshPath =
        a.output_path !== undefined
          ? await deps.workspace.moveInto(scratchMesh, a.output_path, 'output_path')
          : scratchMesh;
      const rel = deps.workspace.relative(meshPath);
      tc.outputFiles.push(rel);
      const faces = Object.keys(m.named.surface_sets);
      const b = m.named.mesh_bbox_mm;
      const longest = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
      return {
        mesh_file: rel,
        element_type: 'C3D10',
        nodes: m.named.nodes,
        elements: m.named.elements,
        element_types: m.named.element_types,
        element_size_mm: a.element_size_mm ?? Number((longest / 20).toPrecision(4)),
        curved_edges: m.curved,
        surface_sets: m.named.surface_sets,
        mesh_bbox_mm: m.named.mesh_bbox_mm,
        coordinate_frame: 'twin' as const,
        placement_baked: true,
        gmsh_time_s: Number(m.gmshSeconds.toFixed(3)),
        warnings: m.warnings,
        next_step: `solver.run_fea {mesh_file: "${rel}", fixed_node_set: "<a face>", load_node_set: "<a face>", load_force_n: [Fx, Fy, Fz]} with faces from surface_sets (${faces.slice(0, 8).join(', ')}${faces.length > 8 ? ', ...' : ''})`,
      };
    },
  });
}
