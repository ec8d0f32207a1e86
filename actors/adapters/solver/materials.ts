import { z } from 'zod';
import { InvalidArgumentsError } from '../kit/tool.ts';

/** A material in engineering units (what callers pass and results echo). */
export interface Material {
  name: string;
  youngs_modulus_mpa: number;
  poisson_ratio: number;
  density_kg_m3: number;
  thermal_conductivity_w_mk: number;
  specific_heat_j_kgk: number;
}

/** Room-temperature handbook values; keys are what `material` accepts by name (case and separators ignored). */
export const MATERIALS: Record<string, Material> = Object.fromEntries(
  (
    [
      ['steel', 210_000, 0.3, 7850, 50, 460],
      ['stainless_steel_304', 193_000, 0.29, 8000, 16.2, 500],
      ['aluminium_6061', 68_900, 0.33, 2700, 167, 896],
      ['aluminium_7075', 71_700, 0.33, 2810, 130, 960],
      ['titanium_ti6al4v', 113_800, 0.342, 4430, 6.7, 526],
      ['copper', 117_000, 0.34, 8960, 398, 385],
      ['brass', 100_000, 0.34, 8500, 109, 380],
      ['cast_iron', 110_000, 0.26, 7200, 52, 460],
      ['abs', 2_300, 0.35, 1050, 0.17, 1400],
      ['pla', 3_500, 0.36, 1240, 0.13, 1800],
      ['nylon_pa6', 2_700, 0.39, 1140, 0.25, 1700],
    ] as const
  ).map(([name, E, nu, rho, k, cp]) => [name, { name, youngs_modulus_mpa: E, poisson_ratio: nu, density_kg_m3: rho, thermal_conductivity_w_mk: k, specific_heat_j_kgk: cp }]),
);

const ALIASES: Record<string, string> = { aluminum_6061: 'aluminium_6061', al6061: 'aluminium_6061', aluminum_7075: 'aluminium_7075', ss304: 'stainless_steel_304', ti6al4v: 'titanium_ti6al4v', structural_steel: 'steel' };

/** `material`: a name from the table, or explicit properties (modulus and Poisson required, the rest default to steel's). */
export const MaterialArgSchema = z
  .union([
    z.string().min(1),
    z.object({
      name: z.string().min(1).default('custom'),
      youngs_modulus_mpa: z.number().positive(),
      poisson_ratio: z.number().gt(-1).lt(0.5),
      density_kg_m3: z.number().positive().optional(),
      thermal_conductivity_w_mk: z.number().positive().optional(),
      specific_heat_j_kgk: z.number().positive().optional(),
    }),
  ])
  .default('steel')
  .describe(`material name (${Object.keys(MATERIALS).join(', ')}) or {youngs_modulus_mpa, poisson_ratio, density_kg_m3, thermal_conductivity_w_mk, specific_heat_j_kgk}`);

/** Resolves `material`; an unknown name is invalid arguments listing the known ones. */
export function resolveMaterial(arg: z.output<typeof MaterialArgSchema>): Material {
  if (typeof arg === 'string') {
    const key = arg.trim().toLowerCase().replace(/[\s-]+/g, '_');
    const m = MATERIALS[ALIASES[key] ?? key];
    if (!m) throw new InvalidArgumentsError(`unknown material ${JSON.stringify(arg)}; known: ${Object.keys(MATERIALS).join(', ')}, or pass {youngs_modulus_mpa, poisson_ratio, ...}`, { material: arg });
    return m;
  }
  const steel = MATERIALS.steel;
  return {
    name: arg.name,
    youngs_modulus_mpa: arg.youngs_modulus_mpa,
    poisson_ratio: arg.poisson_ratio,
    density_kg_m3: arg.density_kg_m3 ?? steel.density_kg_m3,
    thermal_conductivity_w_mk: arg.thermal_conductivity_w_mk ?? steel.thermal_conductivity_w_mk,
    specific_heat_j_kgk: arg.specific_heat_j_kgk ?? steel.specific_heat_j_kgk,
  };
}

/**
 * The material in the deck's units (mm, N, tonne, s, mW): density t/mm³ = kg/m³ × 1e-12; conductivity mW/(mm·K) is
 * numerically W/(m·K); specific heat mm²/(s²·K) = J/(kg·K) × 1e6.
 */
export function deckMaterial(m: Material) {
  return {
    name: m.name,
    youngs_modulus_mpa: m.youngs_modulus_mpa,
    poisson_ratio: m.poisson_ratio,
    density_t_mm3: m.density_kg_m3 * 1e-12,
    conductivity: m.thermal_conductivity_w_mk,
    specific_heat: m.specific_heat_j_kgk * 1e6,
  };
}
