/** Engineering materials the intent compiler recognises: words that name them, and the solver's material name. */
export interface MaterialEntry {
  name: string;
  words: RegExp;
  solver_material: string;
  yield_mpa: number;
  modulus_mpa: number;
  poisson: number;
  density_kg_m3: number;
}

/** Typical room-temperature properties; the solver's table uses the same names (steel, aluminium_6061, ...). */
export const MATERIALS: MaterialEntry[] = [
  { name: 'stainless steel 304', words: /\bstainless(?:\s+steel)?\b|\b304\b/i, solver_material: 'stainless_304', yield_mpa: 215, modulus_mpa: 193_000, poisson: 0.29, density_kg_m3: 8000 },
  { name: 'aluminium 6061-T6', words: /\balumin(?:i)?um(?:\s*6061(?:-T6)?)?\b|\b6061\b/i, solver_material: 'aluminium_6061', yield_mpa: 276, modulus_mpa: 68_900, poisson: 0.33, density_kg_m3: 2700 },
  { name: 'titanium Ti-6Al-4V', words: /\btitanium\b|\bti-?6al-?4v\b/i, solver_material: 'titanium_ti6al4v', yield_mpa: 880, modulus_mpa: 113_800, poisson: 0.342, density_kg_m3: 4430 },
  { name: 'structural steel', words: /\bsteel\b/i, solver_material: 'steel', yield_mpa: 250, modulus_mpa: 210_000, poisson: 0.3, density_kg_m3: 7850 },
];

/** The first material the text names (more specific entries are listed first). */
export function findMaterial(text: string): MaterialEntry | undefined {
  return MATERIALS.find((m) => m.words.test(text));
}
