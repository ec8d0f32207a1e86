/**
 * The one materials table (ISSUE 13 point 6): the solver adapter resolves `material` against it and the intent
 * compiler of the flows actor names its materials from it. The solver's names are canonical (`stainless_steel_304`);
 * other spellings, including the names older intents recorded (`stainless_304`), are aliases. Room-temperature
 * handbook values, engineering units.
 */
export interface MaterialProperties {
  /** Canonical name: what the solver reports and the intent compiler records as `solver_material`. */
  key: string;
  /** How a person writes it (intent statements, findings). */
  label: string;
  youngs_modulus_mpa: number;
  poisson_ratio: number;
  density_kg_m3: number;
  thermal_conductivity_w_mk: number;
  specific_heat_j_kgk: number;
  /** Yield (0.2 % proof) strength; null where the material has no meaningful one (cast iron, polymers). */
  yield_mpa: number | null;
}

type Row = [
  key: string,
  label: string,
  E: number,
  nu: number,
  rho: number,
  k: number,
  cp: number,
  yieldMpa: number | null,
];

// The solver lists them in this order (tool descriptions, "known: ..." in its refusals).
const ROWS: Row[] = [
  ['steel', 'structural steel', 210_000, 0.3, 7850, 50, 460, 250],
  ['stainless_steel_304', 'stainless steel 304', 193_000, 0.29, 8000, 16.2, 500, 215],
  ['aluminium_6061', 'aluminium 6061-T6', 68_900, 0.33, 2700, 167, 896, 276],
  ['aluminium_7075', 'aluminium 7075-T6', 71_700, 0.33, 2810, 130, 960, 503],
  ['titanium_ti6al4v', 'titanium Ti-6Al-4V', 113_800, 0.342, 4430, 6.7, 526, 880],
  ['copper', 'copper', 117_000, 0.34, 8960, 398, 385, null],
  ['brass', 'brass', 100_000, 0.34, 8500, 109, 380, null],
  ['cast_iron', 'cast iron', 110_000, 0.26, 7200, 52, 460, null],
  ['abs', 'ABS', 2_300, 0.35, 1050, 0.17, 1400, null],
  ['pla', 'PLA', 3_500, 0.36, 1240, 0.13, 1800, null],
  ['nylon_pa6', 'nylon PA6', 2_700, 0.39, 1140, 0.25, 1700, null],
];

/** Every material, canonical name first. */
export const MATERIAL_TABLE: readonly MaterialProperties[] = ROWS.map(([key, label, E, nu, rho, k, cp, yieldMpa]) => ({
  key,
  label,
  youngs_modulus_mpa: E,
  poisson_ratio: nu,
  density_kg_m3: rho,
  thermal_conductivity_w_mk: k,
  specific_heat_j_kgk: cp,
  yield_mpa: yieldMpa,
}));

/**
 * Words of a design request that name a material, most specific first (the intent compiler takes the first match, so
 * "stainless steel" is not read as steel). Each names a row of the table that has a yield strength.
 */
export const MATERIAL_WORDS: readonly (readonly [key: string, words: RegExp])[] = [
  ['stainless_steel_304', /\bstainless(?:\s+steel)?\b|\b304\b/i],
  ['aluminium_6061', /\balumin(?:i)?um(?:\s*6061(?:-T6)?)?\b|\b6061\b/i],
  ['titanium_ti6al4v', /\btitanium\b|\bti-?6al-?4v\b/i],
  ['steel', /\bsteel\b/i],
];

/** Canonical names. */
export const MATERIAL_NAMES: readonly string[] = MATERIAL_TABLE.map((m) => m.key);

/** Other names accepted for a material (normalised: lower case, `_` for spaces and hyphens). */
export const MATERIAL_ALIASES: Readonly<Record<string, string>> = {
  stainless_304: 'stainless_steel_304', // what the intent compiler recorded before the table was one
  stainless_steel: 'stainless_steel_304',
  ss304: 'stainless_steel_304',
  aluminum_6061: 'aluminium_6061',
  al6061: 'aluminium_6061',
  aluminum_7075: 'aluminium_7075',
  ti6al4v: 'titanium_ti6al4v',
  structural_steel: 'steel',
};

const BY_KEY = new Map(MATERIAL_TABLE.map((m) => [m.key, m]));

/** The material a name means (case, spaces and hyphens ignored; aliases followed), or undefined. */
export function materialByName(name: string): MaterialProperties | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return BY_KEY.get(MATERIAL_ALIASES[key] ?? key);
}
