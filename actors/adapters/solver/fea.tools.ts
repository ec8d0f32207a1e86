import { z } from 'zod';
import { defineTool, InvalidArgumentsError } from '../kit/tool.ts';
import type { SolverDeps } from './deps.ts';
import { MaterialArgSchema, resolveMaterial } from './materials.ts';
import { solve } from './solve.ts';

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
const MeshFile = z
  .string()
  .min(1)
  .describe('workspace path of the .inp mesh (nodes, volume elements, node sets), e.g. from cadkernel.generate_mesh');

/** Arguments of `solver.run_fea` (TOOLS.md names). */
export const RunFeaInputSchema = z.object({
  mesh_file: MeshFile,
  load_case: z.string().min(1).describe('name of the load case, recorded with the result'),
  analysis_type: z.enum(['static_stress', 'modal', 'thermal']),
  material: MaterialArgSchema,
  fixed_node_set: z
    .string()
    .min(1)
    .default('FIXED')
    .describe('node set held in all three translations (thermal: the sink set)'),
  load_node_set: z
    .string()
    .min(1)
    .default('LOAD')
    .describe('node set the force is split over in equal shares (thermal: the heat source set)'),
  load_force_n: Vec3.optional().describe(
    'total force [Fx, Fy, Fz] in N, in the mesh (twin) frame; required for static_stress',
  ),
  num_modes: z.number().int().min(1).max(50).default(6).describe('modal: how many modes'),
  power_dissipation_w: z.number().positive().optional().describe('thermal only: heat into the load set, W'),
  sink_temp_c: z.number().default(20).describe('thermal only: temperature held on the fixed set, C'),
});

/** Arguments of `solver.run_thermal` (TOOLS.md names). */
export const RunThermalInputSchema = z.object({
  mesh_file: MeshFile,
  material: MaterialArgSchema,
  heat_source_node_set: z
    .string()
    .min(1)
    .default('LOAD')
    .describe('node set the power goes into (a uniform flux over its element faces)'),
  power_dissipation_w: z.number().positive().describe('heat into the source set, W'),
  sink_node_set: z.string().min(1).default('FIXED').describe('node set held at sink_temp_c'),
  sink_temp_c: z.number().default(20),
  load_case: z.string().min(1).default('steady-state heat'),
});

/** `solver.run_fea` and `solver.run_thermal`: CalculiX solves with their summary and result field. */
export function feaTools(deps: SolverDeps) {
  return [
    defineTool({
      name: 'run_fea',
      title: 'Run a finite-element analysis',
      description:
        'Solve a mesh with CalculiX: static_stress (fixed_node_set clamped, load_force_n split equally over load_node_set), modal (num_modes natural frequencies) or thermal. ' +
        'Returns max_von_mises by body, peaks with positions, the load set mean displacement, reaction forces, frequencies, solver_time, mesh_elements, output_files, warnings, and the field object (file + base64 of the service.sim_field payload).',
      input: RunFeaInputSchema,
      handler: async (a, tc) => {
        const material = resolveMaterial(a.material);
        if (a.analysis_type === 'static_stress') {
          if (!a.load_force_n)
            throw new InvalidArgumentsError('load_force_n [Fx, Fy, Fz] is required for a static_stress analysis');
          if (a.load_force_n.every((f) => f === 0))
            throw new InvalidArgumentsError('load_force_n is zero: nothing would load the part');
        }
        if (a.analysis_type === 'thermal' && !a.power_dissipation_w)
          throw new InvalidArgumentsError(
            'power_dissipation_w is required for a thermal analysis (or use solver.run_thermal)',
          );
        return solve(
          deps,
          {
            tool: 'run_fea',
            analysis: a.analysis_type,
            meshFile: a.mesh_file,
            loadCase: a.load_case,
            material,
            fixedSet: a.fixed_node_set,
            loadSet: a.analysis_type === 'modal' ? null : a.load_node_set,
            forceN: a.analysis_type === 'static_stress' ? a.load_force_n! : null,
            numModes: a.num_modes,
            sinkTempC: a.sink_temp_c,
            powerW: a.power_dissipation_w ?? 0,
          },
          tc,
        );
      },
    }),
    defineTool({
      name: 'run_thermal',
      title: 'Run a steady-state thermal analysis',
      description:
        'Steady-state heat conduction with CalculiX: power_dissipation_w into heat_source_node_set (uniform flux over its faces), sink_node_set held at sink_temp_c. ' +
        'Returns max/min temperature with positions, the source mean temperature, solver_time, output_files and the field object.',
      input: RunThermalInputSchema,
      handler: async (a, tc) =>
        solve(
          deps,
          {
            tool: 'run_thermal',
            analysis: 'thermal',
            meshFile: a.mesh_file,
            loadCase: a.load_case,
            material: resolveMaterial(a.material),
            fixedSet: a.sink_node_set,
            loadSet: a.heat_source_node_set,
            forceN: null,
            numModes: 1,
            sinkTempC: a.sink_temp_c,
            powerW: a.power_dissipation_w,
          },
          tc,
        ),
    }),
  ];
}
