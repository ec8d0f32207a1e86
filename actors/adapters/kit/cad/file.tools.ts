import { z } from 'zod';
import { OverwriteArg } from '../output-args.ts';
import { BooleanOperationSchema } from '../../../../contracts/cad.ts';
import { SHAPE_TYPES } from '../../../../workers/cad/shape-types.ts';
import { defineTool } from '../tool.ts';
import {
  CadFileOutSchema,
  PropertiesOutSchema,
  kernelRun,
  outputPath,
  reportFile,
  type CadToolDeps,
} from './common.ts';

/** A through-hole along Z at (x, y) or position [x, y], diameter or radius in mm. */
export const HoleArgSchema = z.object({
  x: z.number().optional(),
  y: z.number().optional(),
  position: z.array(z.number()).min(2).max(3).optional(),
  diameter: z.number().positive().optional(),
  radius: z.number().positive().optional(),
});

const OutputPath = z
  .string()
  .optional()
  .describe(
    'workspace-relative path of the file to write; its extension picks the format (.step default, .stl, .obj, .brep, .amf, .svg); default: a scratch file',
  );
const FilePath = (what: string) =>
  z.string().min(1).describe(`workspace-relative path of the ${what} (STEP, BREP or STL)`);

/** Export formats, either case (SPEC catalogue: STEP, STL, OBJ, BREP, AMF, SVG). */
export const ExportFormatArg = z.enum([
  'STEP',
  'STL',
  'OBJ',
  'BREP',
  'AMF',
  'SVG',
  'step',
  'stl',
  'obj',
  'brep',
  'amf',
  'svg',
]);

/**
 * The stateless file tools both CAD adapters serve (cadscript and cadkernel): create_parametric, boolean_operation,
 * get_properties, export_geometry. Files are passed by workspace path; results carry `cad_file` and the measured
 * properties (global frame). Every solid is checked by the kernel's validity checker before it is written.
 */
export function fileTools(deps: CadToolDeps) {
  const pool = () => deps.pool();
  return [
    defineTool({
      name: 'create_parametric',
      title: 'Create a parametric solid',
      description:
        `Build a solid from a shape type and numeric parameters (mm) and write it to the workspace. Types: ${SHAPE_TYPES.join(', ')}. ` +
        'box/beam: length, width, height (corner at the origin; centered: 1 centres it). plate: length, width, thickness, hole_count, hole_diameter, hole_edge_offset (centred in XY). ' +
        'cylinder: radius|diameter, height. sphere: radius. cone: radius1, radius2 (0 = point), height. torus: major_radius, minor_radius. ' +
        'tube: outer_radius, inner_radius|wall_thickness, height. Any type: fillet or chamfer (every edge, before holes), x, y, z (placement). ' +
        'Returns cad_file, volume_mm3, surface_area_mm2, bounding_box, center_of_mass and parameters_used.',
      input: z.object({
        shape_type: z.enum(SHAPE_TYPES),
        parameters: z.record(z.string(), z.number()).default({}),
        holes: z.array(HoleArgSchema).optional().describe('extra through-holes along Z'),
        output_path: OutputPath,
        overwrite: OverwriteArg,
      }),
      output: CadFileOutSchema,
      handler: async (a, tc) => {
        const output = await outputPath(deps, 'create_parametric', a.output_path, `${a.shape_type}.step`, a.overwrite);
        const r = await kernelRun(tc, (signal) =>
          pool().run(
            'createParametric',
            { shape_type: a.shape_type, parameters: a.parameters, holes: a.holes, output: output.path },
            { signal },
          ),
        );
        return reportFile(deps, tc, r, output);
      },
    }),
    defineTool({
      name: 'boolean_operation',
      title: 'Boolean operation of two solids',
      description:
        'Union, subtract (default) or intersect two solid files. The result is checked by the kernel (validity, volume plausible against the operands); an invalid result is retried with the raw kernel boolean, and fails as a tool error if still invalid. Writes the result and returns its properties.',
      input: z.object({
        target_path: FilePath('target solid'),
        tool_path: FilePath('tool solid'),
        operation: BooleanOperationSchema.default('subtract'),
        output_path: OutputPath,
        overwrite: OverwriteArg,
      }),
      output: CadFileOutSchema,
      handler: async (a, tc) => {
        const [target, tool] = [
          await deps.workspace.resolveForRead(a.target_path, 'target_path'),
          await deps.workspace.resolveForRead(a.tool_path, 'tool_path'),
        ];
        const output = await outputPath(deps, 'boolean_operation', a.output_path, `${a.operation}.step`, a.overwrite);
        const r = await kernelRun(tc, (signal) =>
          pool().run('booleanFiles', { target, tool, operation: a.operation, output: output.path }, { signal }),
        );
        return reportFile(deps, tc, r, output);
      },
    }),
    defineTool({
      name: 'get_properties',
      title: 'Measure a solid',
      description:
        'Volume (mm³), surface area (mm²), tight bounding box and centre of mass in the global frame, topology counts and kernel validity of a STEP, BREP or STL file.',
      input: z.object({ file_path: FilePath('file') }),
      output: PropertiesOutSchema,
      handler: async (a, tc) => {
        const input = await deps.workspace.resolveForRead(a.file_path, 'file_path');
        const r = await kernelRun(tc, (signal) => pool().run('fileProperties', { input }, { signal }));
        return { file_path: a.file_path, ...r };
      },
    }),
    defineTool({
      name: 'export_geometry',
      title: 'Export a solid to another format',
      description:
        'Convert a STEP, BREP or STL file to STEP, STL (binary), OBJ, BREP, AMF or SVG (a projected drawing with hidden lines; view front, top, left, ...). ' +
        'Meshed formats use tolerance (mm, default 0.01) and angular_tolerance (rad, default 0.1).',
      input: z.object({
        file_path: FilePath('file'),
        format: ExportFormatArg,
        output_path: OutputPath,
        overwrite: OverwriteArg,
        tolerance: z.number().positive().optional(),
        angular_tolerance: z.number().positive().optional(),
        view: z.enum(['front', 'back', 'top', 'bottom', 'left', 'right']).optional(),
      }),
      output: CadFileOutSchema,
      handler: async (a, tc) => {
        const input = await deps.workspace.resolveForRead(a.file_path, 'file_path');
        const format = a.format.toLowerCase() as Lowercase<typeof a.format>;
        const base = a.file_path
          .split('/')
          .pop()!
          .replace(/\.[^.]+$/, '');
        const output = await outputPath(deps, 'export_geometry', a.output_path, `${base}.${format}`, a.overwrite);
        const mesh = {
          ...(a.tolerance ? { tolerance: a.tolerance } : {}),
          ...(a.angular_tolerance ? { angular_tolerance: a.angular_tolerance } : {}),
        };
        const r = await kernelRun(tc, (signal) =>
          pool().run('exportFile', { input, format, output: output.path, mesh, view: a.view }, { signal }),
        );
        return reportFile(deps, tc, r, output);
      },
    }),
  ];
}
