import type { PhaseExecutor } from '../../executor.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import { commitBox } from './box-part.ts';
import { staticStress } from './static-stress.ts';
import { intentOf } from './early-phases.ts';

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
    const force = p.loads.reduce((sum, l) => sum + l.magnitude_n, 0);
    const sf = p.safety_factor ?? 1.5;
    const allowable = Math.round((p.material.yield_mpa / sf) * 10) / 10;
    const yieldMpa = p.material.yield_mpa;
    const fea = await staticStress(
      input,
      cad,
      {
        load: p.loads.map((l) => `${l.magnitude_n} N at the ${l.location}`).join(' + '),
        force_n: force,
        material: p.material,
      },
      (stress) => ({ safety_factor: Math.round((yieldMpa / stress) * 100) / 100 }),
    );
    const stress = fea.stress_mpa;
    const loadCase = fea.load_case;
    const result = fea.result;
    const pass = stress <= allowable;
    const d = await use(input, 'twin.record_decision', {
      title: `V&V verdict: ${pass ? 'PASS' : 'FAIL'}`,
      decision: `finite-element analysis (CalculiX, ${fea.elements} C3D10 elements): peak von Mises ${stress} MPa ${pass ? '<=' : '>'} allowable ${allowable} MPa (yield ${p.material.yield_mpa} MPa / safety factor ${sf})`,
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
