import type { PhaseExecutor } from '../../executor.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import { commitBox } from './box-part.ts';
import { intentOf } from './early-phases.ts';

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

/**
 * design: the part the goal describes, made with the CAD tools (a box of the stated envelope: length along x, width
 * along y, height along z), committed as a draft cad_model with its measured properties, and the design decision.
 */
export const designPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const p = intent.parameters;
    if (!p.dimensions_mm || p.dimensions_mm.length < 3)
      throw new PhaseStop('data', 'the design needs three dimensions of the envelope');
    const [length, width, height] = p.dimensions_mm;
    const name = intent.goal_object;
    const { cad, solid, massKg } = await commitBox(input, {
      name,
      length,
      width,
      height,
      material: p.material ?? undefined,
    });
    const d = await use(input, 'twin.record_decision', {
      title: `Design of the ${name}`,
      decision: `Solid ${length} x ${width} x ${height} mm rectangular section in ${p.material?.name ?? 'the stated material'}${massKg ? `, ${massKg.toFixed(3)} kg` : ''}; fixed at x = 0, loaded at x = ${length}`,
      rationale:
        'the simplest section that fills the stated envelope; the simulation phase checks it against the stress requirement',
      depends_on: [cad.item_key],
    });
    return {
      summary: `geometry ${cad.item_ref} committed as a draft: ${length} x ${width} x ${height} mm, volume ${Math.round(solid.volume_mm3)} mm3`,
      deliverables: [
        { type: 'cad_model', node_id: cad.node_id, ref: cad.item_ref },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });

/**
 * simulation: stage the committed geometry, mesh it, solve it under the load case with CalculiX, record the result
 * with its field against the analysed geometry, and give the verdict against the allowable stress.
 */
export const simulationPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const p = intent.parameters;
    const cad = priorOf(input, 'cad_model').at(-1);
    if (!cad?.ref) throw new PhaseStop('data', 'no geometry was designed in this run');
    if (!p.loads.length || !p.material) throw new PhaseStop('data', 'the analysis needs the loads and the material');
    const staged = await use(input, 'twin.stage_work_product_file', { item_key: cad.ref });
    const mesh = await use(input, 'cadkernel.generate_mesh', { file_path: staged.file_path }, 600);
    const faces = mesh.surface_sets as Record<string, Face>;
    const fixed = endFace(faces, 0, -1);
    const loaded = endFace(faces, 0, 1);
    if (!fixed || !loaded) throw new PhaseStop('tool', 'the mesh has no end faces normal to the length axis');
    const force = p.loads.reduce((sum, l) => sum + l.magnitude_n, 0);
    const loadCase = `${p.loads.map((l) => `${l.magnitude_n} N at the ${l.location}`).join(' + ')}, ${fixed} fixed`;
    const fea = await use(
      input,
      'solver.run_fea',
      {
        mesh_file: mesh.mesh_file,
        load_case: loadCase,
        analysis_type: 'static_stress',
        material: {
          name: p.material.solver_material,
          youngs_modulus_mpa: p.material.modulus_mpa,
          poisson_ratio: p.material.poisson,
          density_kg_m3: p.material.density_kg_m3,
        },
        fixed_node_set: fixed,
        load_node_set: loaded,
        load_force_n: [0, 0, -force],
      },
      1200,
    );
    const sf = p.safety_factor ?? 1.5;
    const allowable = Math.round((p.material.yield_mpa / sf) * 10) / 10;
    const stress = Number(fea.max_von_mises_mpa);
    const result = await use(input, 'twin.record_document', {
      document_type: 'simulation_result',
      name: `static stress: ${loadCase}`,
      summary: {
        max_von_mises_mpa: stress,
        max_displacement_mm: fea.max_displacement_mm,
        safety_factor: Math.round((p.material.yield_mpa / stress) * 100) / 100,
        load_case: loadCase,
        meshStats: { nodes: mesh.nodes, elements: mesh.elements, element_size_mm: mesh.element_size_mm },
        warnings: fea.warnings ?? [],
      },
      ...(fea.field?.file ? { field_file: fea.field.file } : {}),
      analysed_geometry_node_id: cad.node_id,
      load_case_spec: {
        fixed_node_set: fixed,
        load_node_set: loaded,
        load_force_n: [0, 0, -force],
        material: p.material.solver_material,
      },
    });
    const pass = stress <= allowable;
    const d = await use(input, 'twin.record_decision', {
      title: `V&V verdict: ${pass ? 'PASS' : 'FAIL'}`,
      decision: `finite-element analysis (CalculiX, ${mesh.elements} C3D10 elements): peak von Mises ${stress} MPa ${pass ? '<=' : '>'} allowable ${allowable} MPa (yield ${p.material.yield_mpa} MPa / safety factor ${sf})`,
      rationale: `load case ${loadCase}; the peak sits at the fixed edge, where the clamp makes the stress singular, so it is conservative`,
      depends_on: [cad.ref],
    });
    return {
      summary: `FEA: ${stress} MPa against ${allowable} MPa allowable — ${pass ? 'pass' : 'fail'}`,
      deliverables: [
        { type: 'simulation_result', node_id: result.node_id },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });
