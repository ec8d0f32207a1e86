import { z } from 'zod';
import { CreateAssemblyRequestSchema } from '../../../contracts/cad.ts';
import { BBoxOutSchema, kernelRun, outputPath, reportFile, SANDBOX_DOC, type CadToolDeps } from '../kit/cad/common.ts';
import { OverwriteArg } from '../kit/output-args.ts';
import { defineTool } from '../kit/tool.ts';

/** Default CPU time of a script inside the kernel thread; the call's own deadline (timeout_seconds) also applies. */
export const SCRIPT_CPU_SECONDS = 300;

/** Arguments of a sandboxed script (cadscript.execute_script, cadkernel.execute_code). */
export const ScriptArgs = {
  code: z
    .string()
    .min(1)
    .max(200_000)
    .describe(
      'JavaScript run against the kernel API (replicad functions are globals: makeBaseBox, makeCylinder, drawRoundedRectangle, ...). Set `result` (or end with an expression); `params` holds the params argument.',
    ),
  params: z.record(z.string(), z.unknown()).optional(),
  cpu_seconds: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe(`CPU time limit of the script (default ${SCRIPT_CPU_SECONDS} s; the call deadline applies too)`),
};

/** cadscript's scripted and composite tools: execute_script, create_assembly, generate_enclosure. */
export function scriptTools(deps: CadToolDeps) {
  const pool = () => deps.pool();
  return [
    defineTool({
      name: 'execute_script',
      title: 'Run a CAD script',
      description: `Run a JavaScript script against the OpenCascade kernel API. When \`result\` is a solid it is also written to the workspace (cad_file). ${SANDBOX_DOC}`,
      input: z.object({ ...ScriptArgs, output_path: z.string().optional(), overwrite: OverwriteArg }),
      handler: async (a, tc) => {
        const output = await outputPath(deps, 'execute_script', a.output_path, 'script_result.step', a.overwrite);
        const r = await kernelRun(tc, (signal) =>
          pool().run(
            'runStatelessScript',
            {
              code: a.code,
              params: a.params,
              timeout_ms: (a.cpu_seconds ?? SCRIPT_CPU_SECONDS) * 1000,
              output: output.path,
            },
            { signal },
          ),
        );
        const { file, ...rest } = r;
        return { ...rest, ...(file ? await reportFile(deps, tc, file, output) : {}) };
      },
    }),
    defineTool({
      name: 'create_assembly',
      title: 'Create an assembly of parametric parts',
      description:
        'Build an assembly from parts (SPEC "Assembly part": name, kind box|cylinder|cone|sphere, parameters in mm, position [x,y,z], fillet or chamfer applied to every edge before holes, holes [{x, y, diameter}]) and write one STEP with the part names. ' +
        'Returns cad_file, part_count, per-part properties, the overall bounding box and interferences (pairs of parts that overlap, with the common volume).',
      input: CreateAssemblyRequestSchema.extend({ output_path: z.string().optional(), overwrite: OverwriteArg }),
      handler: async (a, tc) => {
        const output = await outputPath(
          deps,
          'create_assembly',
          a.output_path,
          `${a.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}.step`,
          a.overwrite,
        );
        const parts = a.parts.map((p) => ({
          ...p,
          holes: p.holes as { x?: number; y?: number; diameter?: number; radius?: number }[] | undefined,
        }));
        const r = await kernelRun(tc, (signal) =>
          pool().run('createAssemblyFile', { name: a.name, parts, output: output.path }, { signal }),
        );
        return reportFile(deps, tc, r, output);
      },
    }),
    defineTool({
      name: 'generate_enclosure',
      title: 'Generate an enclosure',
      description:
        'An open box with floor and walls of wall_thickness around an inner cavity (inner_length x inner_width x inner_height, mm, optional corner_radius) and a lid sitting on top; written as one STEP with parts base and lid. Returns cad_file, parts with properties and the bounding box.',
      input: z.object({
        inner_length: z.number().positive(),
        inner_width: z.number().positive(),
        inner_height: z.number().positive(),
        wall_thickness: z.number().positive().default(2),
        corner_radius: z.number().min(0).default(0),
        lid: z.boolean().default(true),
        output_path: z.string().optional(),
        overwrite: OverwriteArg,
      }),
      output: z.looseObject({
        cad_file: z.string(),
        parts: z.array(z.looseObject({ name: z.string(), volume_mm3: z.number() })),
        bounding_box: BBoxOutSchema,
      }),
      handler: async (a, tc) => {
        const output = await outputPath(deps, 'generate_enclosure', a.output_path, 'enclosure.step', a.overwrite);
        const { output_path: _o, overwrite: _w, ...dims } = a;
        const r = await kernelRun(tc, (signal) =>
          pool().run('generateEnclosure', { ...dims, output: output.path }, { signal }),
        );
        return reportFile(deps, tc, r, output);
      },
    }),
  ];
}
