import { MATERIAL_WORDS, materialByName } from '../../contracts/materials.ts';

/** An engineering material the intent compiler recognises: the words that name it and the solver's (canonical) name. */
export interface MaterialEntry {
  name: string;
  words: RegExp;
  solver_material: string;
  yield_mpa: number;
  modulus_mpa: number;
  poisson: number;
  density_kg_m3: number;
}

/** The materials a request can name, most specific first, from the one table (contracts/materials.ts). */
export const MATERIALS: MaterialEntry[] = MATERIAL_WORDS.map(([key, words]) => {
  const m = materialByName(key);
  if (!m || m.yield_mpa === null) throw new Error(`contracts/materials.ts: ${key} needs a row with a yield strength`);
  return {
    name: m.label,
    words,
    solver_material: m.key,
    yield_mpa: m.yield_mpa,
    modulus_mpa: m.youngs_modulus_mpa,
    poisson: m.poisson_ratio,
    density_kg_m3: m.density_kg_m3,
  };
});

/** The first material the text names (more specific entries are listed first). */
export function findMaterial(text: string): MaterialEntry | undefined {
  return MATERIALS.find((m) => m.words.test(text));
}
