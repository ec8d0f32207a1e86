import type { PhaseExecutor } from '../../executor.ts';
import { intentOf } from '../mech/early-phases.ts';
import { phase, priorOf, use } from '../tools.ts';
import { bracketChoice } from './bracket-choice.ts';
import { type ConceptRating, tradeTable } from './concepts.ts';
import { CHOICES } from './reference-data.ts';

const f = (n: number, d = 1) => n.toFixed(d);
const numbers = (r: ConceptRating) =>
  `${f(r.stress_mpa)} MPa vs ${f(r.allowable_mpa)} MPa allowable, deflection ${f(r.deflection_mm, 3)} mm, ${f(r.mass_kg * 1000)} g`;

/**
 * concept_selection: bracket concepts (the stated plate and two alternatives) rated by the feasibility phase's
 * cantilever hand calculation, the trade-study table recorded as a document, and the decision with its alternatives:
 * the stated bracket (bracketChoice), with the hand calculation's verdict and the remedy when it rates it infeasible.
 */
export const conceptSelectionPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const { loadCase: k, ratings, chosen, remedy, safetyFactor: sf, assumedSafetyFactor } = bracketChoice(intent);
    const r0 = ratings[0]!;
    const verdict = chosen.feasible
      ? 'within the allowable by hand'
      : `ABOVE the allowable by hand: ${remedy ? `the lightest concept that carries the load is ${remedy.id} (${remedy.label}); adopt it by changing the request` : 'no concept of the study carries the load'}; the stated bracket stays the choice and the finite-element analysis at V&V decides`;
    const method = [
      `HAND CALCULATION (the feasibility phase's cantilever, not an analysis): load = ${k.mass_kg} kg x (1 + ${CHOICES.shockAmplification.value} x ${k.shock_g} g shock) x g = ${f(r0.load_n, 2)} N (${CHOICES.shockAmplification.source})`,
      `at the enclosure's centre of mass, lever arm = standoff ${k.standoff_mm} mm + depth/2 = ${r0.lever_mm} mm; plate ${r0.length_mm} mm long and ${r0.width_mm} mm wide`,
      `(the enclosure depth, a design choice); sigma = P L (h/2) / I, delta = P L^3 / (3 E I); allowable = yield / safety factor ${sf}${assumedSafetyFactor ? ' (assumed, none stated)' : ''};`,
      'materials from contracts/materials.ts; choice: the bracket the request states (material and thickness), the others rated as alternatives.',
    ].join(' ');
    const table = tradeTable(ratings, chosen);
    const doc = await use(input, 'twin.record_document', {
      document_type: 'trade_study',
      name: `Trade study: bracket of the ${intent.goal_object}`,
      content: `# Bracket trade study\n\n${method}\n\n${table}\n`,
    });
    const parents = priorOf(input, 'constraint_set')
      .map((d) => d.ref!)
      .filter(Boolean);
    const d = await use(input, 'twin.record_decision', {
      title: `Concept selection: ${chosen.label} bracket`,
      decision: `Bracket concept ${chosen.id}: ${chosen.label}, ${chosen.length_mm} x ${chosen.width_mm} x ${chosen.thickness_mm} mm — ${numbers(chosen)} (HAND CALCULATION), ${verdict}; the simulation phase verifies. Trade study: node ${doc.node_id}.`,
      rationale: `${method}\n\n${table}`,
      alternatives: ratings
        .filter((r) => r !== chosen)
        .map(
          (r) =>
            `${r.id}: ${r.label} — ${numbers(r)}; ${r.feasible ? (r.mass_kg > chosen.mass_kg ? 'feasible but heavier' : 'feasible, but not the stated bracket') : 'exceeds the allowable'}`,
        ),
      depends_on: parents,
    });
    return {
      summary: `concept ${chosen.id} (${chosen.label}) chosen of ${ratings.length}: ${numbers(chosen)}`,
      deliverables: [
        { type: 'trade_study', node_id: doc.node_id },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });
