import { materialByName } from '../../../../contracts/materials.ts';
import { cantilever } from '../mech/hand-calc.ts';
import { CHOICES, STANDARD_GRAVITY } from './reference-data.ts';

/** The bracket load case every concept is judged on, from the request's stated quantities. */
export interface BracketCase {
  /** Mounted mass (kg). */
  mass_kg: number;
  /**
   * Shock acceleration in g, amplified by CHOICES.shockAmplification; gravity is added to it (worst case: shock and
   * gravity in the same direction).
   */
  shock_g: number;
  /** Standoff from the wall (mm). */
  standoff_mm: number;
  /** Enclosure envelope (mm); its smallest side is the depth away from the wall and the bracket width. */
  envelope_mm: number[];
  /** Safety factor against yield. */
  safety_factor: number;
}

/** A bracket concept: a flat plate of one material and thickness. */
export interface BracketConcept {
  id: string;
  label: string;
  material: string;
  thickness_mm: number;
}

/** A concept judged by the feasibility phase's cantilever hand calculation. */
export interface ConceptRating extends BracketConcept {
  load_n: number;
  lever_mm: number;
  width_mm: number;
  length_mm: number;
  stress_mpa: number;
  allowable_mpa: number;
  deflection_mm: number;
  safety_factor: number;
  mass_kg: number;
  feasible: boolean;
}

/**
 * The concepts: the stated bracket, a thinner steel plate, and a thicker plate of the stated material (thicknesses
 * one millimetre either side of the stated one).
 */
export function bracketConcepts(statedMaterial: string, statedThicknessMm: number): BracketConcept[] {
  const stated = materialByName(statedMaterial)!;
  const alt = stated.key === 'steel' ? materialByName('aluminium_6061')! : materialByName('steel')!;
  return [
    {
      id: 'A',
      label: `${statedThicknessMm} mm ${stated.label} (as stated)`,
      material: stated.key,
      thickness_mm: statedThicknessMm,
    },
    {
      id: 'B',
      label: `${statedThicknessMm - 1} mm ${alt.label}`,
      material: alt.key,
      thickness_mm: statedThicknessMm - 1,
    },
    {
      id: 'C',
      label: `${statedThicknessMm + 1} mm ${stated.label}`,
      material: stated.key,
      thickness_mm: statedThicknessMm + 1,
    },
  ].filter((c) => c.thickness_mm > 0);
}

/** The bracket's design load (N): mass x (1 + amplification x shock) x g. */
export function bracketLoadN(k: Pick<BracketCase, 'mass_kg' | 'shock_g'>): number {
  return k.mass_kg * (1 + CHOICES.shockAmplification.value * k.shock_g) * STANDARD_GRAVITY.value;
}

/**
 * Rates a concept: the bracket is a cantilever from the wall whose load (bracketLoadN) acts at the
 * enclosure's centre of mass, standoff + depth / 2 out; the plate spans standoff + depth and is as wide as the depth.
 */
export function rateConcept(c: BracketConcept, k: BracketCase): ConceptRating {
  const m = materialByName(c.material)!;
  const depth = Math.min(...k.envelope_mm);
  const load_n = bracketLoadN(k);
  const lever_mm = k.standoff_mm + depth / 2;
  const { sigma, delta } = cantilever({ P: load_n, L: lever_mm, b: depth, h: c.thickness_mm, E: m.youngs_modulus_mpa });
  const yieldMpa = m.yield_mpa ?? 0;
  const allowable_mpa = yieldMpa / k.safety_factor;
  const length_mm = k.standoff_mm + depth;
  return {
    ...c,
    load_n,
    lever_mm,
    width_mm: depth,
    length_mm,
    stress_mpa: sigma,
    allowable_mpa,
    deflection_mm: delta,
    safety_factor: yieldMpa / sigma,
    mass_kg: length_mm * depth * c.thickness_mm * m.density_kg_m3 * 1e-9,
    feasible: sigma <= allowable_mpa,
  };
}

/** The choice: the lightest feasible concept (ties: the earlier, so the stated one); none feasible gives undefined. */
export function selectConcept(ratings: ConceptRating[]): ConceptRating | undefined {
  return ratings
    .filter((r) => r.feasible)
    .reduce<ConceptRating | undefined>((best, r) => (!best || r.mass_kg < best.mass_kg ? r : best), undefined);
}

const f = (n: number, d = 1) => n.toFixed(d);

/** The trade-study table (markdown), one row per concept. */
export function tradeTable(ratings: ConceptRating[], chosen?: ConceptRating): string {
  const head = '| concept | stress MPa | allowable MPa | SF vs yield | deflection mm | mass g | feasible | chosen |';
  const rows = ratings.map(
    (r) =>
      `| ${r.id}: ${r.label} | ${f(r.stress_mpa)} | ${f(r.allowable_mpa)} | ${f(r.safety_factor, 2)} | ${f(r.deflection_mm, 3)} | ${f(r.mass_kg * 1000)} | ${r.feasible ? 'yes' : 'no'} | ${r === chosen ? 'yes' : ''} |`,
  );
  return [head, '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}
