import type { PhaseInput } from '../../executor.ts';
import type { Deliverable } from '../../run.types.ts';
import { PhaseStop, use } from '../tools.ts';

type Vec = [number, number, number];
interface Face {
  bbox_mm: { min: Vec; max: Vec };
  centroid_mm: Vec;
  area_mm2: number;
  normal: Vec;
}

/** The face whose centroid is lowest (`side` -1) or highest (+1) along `axis`, among faces normal to that axis. */
export function endFace(faces: Record<string, Face>, axis: 0 | 1 | 2, side: -1 | 1): string | undefined {
  const candidates = Object.entries(faces).filter(([, f]) => Math.abs(f.normal[axis]) > 0.9);
  candidates.sort(([, a], [, b]) => side * (b.centroid_mm[axis] - a.centroid_mm[axis]));
  return candidates[0]?.[0];
}

/** A cantilever load case on committed geometry: fixed at x min, `force_n` down (-z) on the x max end face. */
export interface StaticCase {
  /** How the load is described (the result's name and load case), e.g. `11.8 N at the free end`. */
  load: string;
  force_n: number;
  material: { solver_material: string; modulus_mpa: number; poisson: number; density_kg_m3: number };
}

export interface StaticOutcome {
  stress_mpa: number;
  displacement_mm: unknown;
  load_case: string;
  elements: number;
  result: { node_id: string };
}

/**
 * Stages the committed geometry, meshes it, solves the cantilever case with CalculiX (solver.run_fea) and records the
 * result with its field against the analysed geometry (the one FEA path of mech_v1 and hardware_v1). `extra` goes
 * into the recorded summary (e.g. the safety factor against yield, from the stress).
 */
export async function staticStress(
  input: PhaseInput,
  cad: Deliverable,
  k: StaticCase,
  extra: (stressMpa: number) => Record<string, unknown> = () => ({}),
): Promise<StaticOutcome> {
  if (!cad.ref) throw new PhaseStop('data', 'the geometry to analyse has no item ref');
  const staged = await use(input, 'twin.stage_work_product_file', { item_key: cad.ref });
  const mesh = await use(input, 'cadkernel.generate_mesh', { file_path: staged.file_path }, 600);
  const faces = mesh.surface_sets as Record<string, Face>;
  const fixed = endFace(faces, 0, -1);
  const loaded = endFace(faces, 0, 1);
  if (!fixed || !loaded) throw new PhaseStop('tool', 'the mesh has no end faces normal to the length axis');
  const loadCase = `${k.load}, ${fixed} fixed`;
  const fea = await use(
    input,
    'solver.run_fea',
    {
      mesh_file: mesh.mesh_file,
      load_case: loadCase,
      analysis_type: 'static_stress',
      material: {
        name: k.material.solver_material,
        youngs_modulus_mpa: k.material.modulus_mpa,
        poisson_ratio: k.material.poisson,
        density_kg_m3: k.material.density_kg_m3,
      },
      fixed_node_set: fixed,
      load_node_set: loaded,
      load_force_n: [0, 0, -k.force_n],
    },
    1200,
  );
  const stress = Number(fea.max_von_mises_mpa);
  const result = await use(input, 'twin.record_document', {
    document_type: 'simulation_result',
    name: `static stress: ${loadCase}`,
    summary: {
      max_von_mises_mpa: stress,
      max_displacement_mm: fea.max_displacement_mm,
      load_case: loadCase,
      meshStats: { nodes: mesh.nodes, elements: mesh.elements, element_size_mm: mesh.element_size_mm },
      warnings: fea.warnings ?? [],
      ...extra(stress),
    },
    ...(fea.field?.file ? { field_file: fea.field.file } : {}),
    analysed_geometry_node_id: cad.node_id,
    load_case_spec: {
      fixed_node_set: fixed,
      load_node_set: loaded,
      load_force_n: [0, 0, -k.force_n],
      material: k.material.solver_material,
    },
  });
  return {
    stress_mpa: stress,
    displacement_mm: fea.max_displacement_mm,
    load_case: loadCase,
    elements: Number(mesh.elements),
    result: { node_id: result.node_id as string },
  };
}
