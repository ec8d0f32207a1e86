import { materialByName } from '../../../../contracts/materials.ts';
import type { PhaseExecutor } from '../../executor.ts';
import { commitBox } from '../mech/box-part.ts';
import { intentOf } from '../mech/early-phases.ts';
import { phase, use } from '../tools.ts';
import { bracketChoice } from './bracket-choice.ts';

const f = (n: number, d = 1) => n.toFixed(d);

/**
 * design (hardware_v1): the load-bearing structure, the wall bracket of the chosen concept, made with the CAD tools
 * (length along x from the wall, width along y, plate thickness along z) and committed as a draft cad_model the way
 * mech_v1 commits its part; the decision states its material against the safety factor (hand calculation, which the
 * simulation phase's FEA verifies). The housing is not modelled here.
 */
export const hardwareDesignPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const { chosen, safetyFactor, assumedSafetyFactor } = bracketChoice(intent);
    const m = materialByName(chosen.material)!;
    const name = 'wall bracket';
    const { cad, solid, massKg } = await commitBox(input, {
      name,
      length: chosen.length_mm,
      width: chosen.width_mm,
      height: chosen.thickness_mm,
      material: { name: m.label, density_kg_m3: m.density_kg_m3 },
    });
    const d = await use(input, 'twin.record_decision', {
      title: `Design of the ${name}`,
      decision: `Flat ${m.label} plate ${chosen.length_mm} x ${chosen.width_mm} x ${chosen.thickness_mm} mm (concept ${chosen.id})${massKg ? `, ${massKg.toFixed(4)} kg` : ''}; fixed at x = 0 (wall), enclosure centre of mass at x = ${chosen.lever_mm} mm. Material vs safety factor (HAND CALCULATION): yield ${m.yield_mpa} MPa / ${f(chosen.stress_mpa)} MPa = ${f(chosen.safety_factor, 2)} against the required ${safetyFactor}${assumedSafetyFactor ? ' (assumed, none stated)' : ''}.`,
      rationale: `the bracket the request states, chosen at concept selection (allowable ${f(chosen.allowable_mpa)} MPa, design load ${f(chosen.load_n, 2)} N); the simulation phase checks it by finite-element analysis`,
      depends_on: [cad.item_key],
    });
    return {
      summary: `geometry ${cad.item_ref} committed as a draft: ${name} ${chosen.length_mm} x ${chosen.width_mm} x ${chosen.thickness_mm} mm ${m.label}, volume ${Math.round(solid.volume_mm3)} mm3`,
      deliverables: [
        { type: 'cad_model', node_id: cad.node_id, ref: cad.item_ref },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });
