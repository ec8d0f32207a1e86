import type { CompiledIntent } from '../../../../contracts/intent.ts';
import { PhaseStop } from '../tools.ts';
import { bracketConcepts, type BracketCase, type ConceptRating, rateConcept, selectConcept } from './concepts.ts';
import { hardwareFacts } from './request-facts.ts';

/**
 * The bracket concepts of a hardware request, rated, and the chosen one: deterministic from the compiled intent, so
 * the concept_selection and design phases of a run agree. The request states the bracket (material and thickness), so
 * the stated concept is the choice even when the hand calculation rates it above the allowable: the finite-element
 * analysis at V&V decides, and `remedy` names the lightest concept the hand calculation rates feasible (for a person to
 * adopt by changing the request). Missing inputs stop the phase as a data failure naming them.
 */
export function bracketChoice(intent: CompiledIntent): {
  loadCase: BracketCase;
  ratings: ConceptRating[];
  chosen: ConceptRating;
  remedy: ConceptRating | undefined;
  safetyFactor: number;
  assumedSafetyFactor: boolean;
} {
  const p = intent.parameters;
  const facts = hardwareFacts(intent.immediate_request);
  const missing = [
    ...(facts.mass_kg === null ? ['the enclosure mass'] : []),
    ...(facts.standoff_mm === null ? ['the wall standoff'] : []),
    ...(facts.bracket_thickness_mm === null ? ['the bracket thickness'] : []),
    ...(facts.shock_g === null ? ['the shock level'] : []),
    ...(!p.material ? ['the bracket material'] : []),
    ...(!p.dimensions_mm || p.dimensions_mm.length < 3 ? ['the enclosure envelope'] : []),
  ];
  if (missing.length)
    throw new PhaseStop('data', `the bracket concepts need ${missing.join(', ')}, which the request does not state`);
  const safetyFactor = p.safety_factor ?? 1.5;
  const k: BracketCase = {
    mass_kg: facts.mass_kg!,
    shock_g: facts.shock_g!,
    standoff_mm: facts.standoff_mm!,
    envelope_mm: p.dimensions_mm!,
    safety_factor: safetyFactor,
  };
  const ratings = bracketConcepts(p.material!.solver_material, facts.bracket_thickness_mm!).map((c) =>
    rateConcept(c, k),
  );
  const stated = ratings[0]!;
  return {
    loadCase: k,
    ratings,
    chosen: stated,
    remedy: stated.feasible ? undefined : selectConcept(ratings),
    safetyFactor,
    assumedSafetyFactor: p.safety_factor === null,
  };
}
