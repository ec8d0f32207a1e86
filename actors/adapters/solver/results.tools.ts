import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../kit/tool.ts';
import { existingFile, type SolverDeps } from './deps.ts';
import { fieldObject } from './field-object.ts';

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
const r = (x: number | undefined) => (x === undefined ? null : Number(x.toPrecision(6)));

/** `solver.validate_mesh` and `solver.extract_results`. */
export function resultTools(deps: SolverDeps) {
  return [
    defineTool({
      name: 'validate_mesh',
      title: 'Check a mesh before solving',
      description:
        'Mesh quality of an .inp: element types and counts, aspect ratio per element (tets: longest edge / (2√6 · inradius), 1.0 = regular) with max, mean and p99, ' +
        'elements over max_aspect_ratio, inverted elements, unused nodes, node sets, and non-volume elements the solver leaves out. valid = nothing inverted and nothing over the limit.',
      input: z.object({
        mesh_file: z.string().min(1).describe('workspace path of the .inp mesh'),
        max_aspect_ratio: z.number().positive().default(10).describe('largest acceptable aspect ratio'),
      }),
      handler: async (a, tc) => {
        const meshPath = await existingFile(deps.workspace, a.mesh_file, 'mesh_file');
        const { ok: _ok, ...q } = await deps.pool.run(
          'meshQuality',
          { meshPath, maxAspectRatio: a.max_aspect_ratio },
          tc.signal,
        );
        return { mesh_file: a.mesh_file, ...q };
      },
    }),
    defineTool({
      name: 'extract_results',
      title: 'Read a CalculiX result file',
      description:
        'Read a solved .frd (ASCII): analysis type (detected unless given), peaks with positions (von Mises, displacement, temperature), frequencies of a modal run, and the field object (service.sim_field payload). ' +
        'Markers come from the node sets of mesh_file (default: the .inp beside the .frd) named fixed_node_set and load_node_set.',
      input: z.object({
        frd_path: z.string().min(1).describe('workspace path of the .frd'),
        analysis_type: z.enum(['static_stress', 'modal', 'thermal']).optional(),
        mesh_file: z
          .string()
          .min(1)
          .optional()
          .describe('the .inp with the node sets (default: same name as the .frd)'),
        fixed_node_set: z.string().min(1).default('FIXED'),
        load_node_set: z.string().min(1).default('LOAD'),
        load_force_n: Vec3.optional().describe('force shown on the load marker, N'),
      }),
      handler: async (a, tc) => {
        const frdPath = await existingFile(deps.workspace, a.frd_path, 'frd_path');
        const warnings: string[] = [];
        let meshPath: string | undefined;
        if (a.mesh_file) meshPath = await existingFile(deps.workspace, a.mesh_file, 'mesh_file');
        else {
          const sibling = frdPath.replace(/\.frd$/i, '.inp');
          if (sibling !== frdPath && (await fs.stat(sibling).catch(() => undefined))?.isFile()) meshPath = sibling;
        }
        let sets: Record<string, Int32Array> = {};
        if (meshPath) {
          const found = await deps.pool.run(
            'readSets',
            { meshPath, names: [a.fixed_node_set, a.load_node_set] },
            tc.signal,
          );
          sets = found.sets;
          if (found.missing.length)
            warnings.push(
              `no markers for ${found.missing.join(', ')}: not node sets of ${deps.workspace.relative(meshPath)}`,
            );
        } else warnings.push('no mesh_file (and no .inp beside the .frd): the field has no fixture or load markers');
        const dir = await deps.workspace.scratch('solver.extract_results');
        const outPath = path.join(dir, 'result.field.json.gz');
        const built = await deps.pool.run(
          'buildField',
          {
            frdPath,
            analysisType: a.analysis_type,
            outPath,
            capBytes: deps.fieldCapBytes,
            fixtures: sets[a.fixed_node_set] ? [{ label: a.fixed_node_set, nodeIds: sets[a.fixed_node_set] }] : [],
            loads:
              sets[a.load_node_set] && a.load_force_n
                ? [{ label: a.load_node_set, nodeIds: sets[a.load_node_set], vector: a.load_force_n, unit: 'N' }]
                : [],
            probes: sets[a.load_node_set] ? [{ name: a.load_node_set, nodeIds: sets[a.load_node_set] }] : [],
          },
          tc.signal,
        );
        const s = built.summary;
        const field = fieldObject(built.field, deps.workspace.relative(outPath), s.analysis_type, deps.metrics);
        if (built.field.ok) tc.outputFiles.push(deps.workspace.relative(outPath));
        const probe = s.probes[a.load_node_set];
        return {
          frd_path: a.frd_path,
          analysis_type: s.analysis_type,
          nodes: s.nodes,
          elements: s.elements,
          element_types: s.element_types,
          blocks: s.blocks,
          step: s.step,
          bbox_mm: s.bbox,
          max_von_mises_mpa: r(s.von_mises?.max),
          max_von_mises_position_mm: s.von_mises?.peak.position ?? null,
          min_von_mises_mpa: r(s.von_mises?.min),
          max_displacement_mm: r(s.displacement?.max),
          max_displacement_position_mm: s.displacement?.peak.position ?? null,
          ...(probe?.mean_displacement
            ? { load_set_mean_displacement_mm: probe.mean_displacement.map((x) => r(x)) }
            : {}),
          ...(s.temperature
            ? {
                max_temperature_c: r(s.temperature.max),
                min_temperature_c: r(s.temperature.min),
                max_temperature_position_mm: s.temperature.peak.position,
              }
            : {}),
          ...(s.modes ? { frequencies_hz: s.modes.map((m) => r(m.frequency_hz)), modes: s.modes } : {}),
          output_files: built.field.ok ? [deps.workspace.relative(outPath)] : [],
          warnings,
          field,
        };
      },
    }),
  ];
}
