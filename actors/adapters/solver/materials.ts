import { z } from 'zod';
import { MATERIAL_TABLE, materialByName } from '../../../contracts/materials.ts';
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

/** The solver's materials by canonical name: the shared table (contracts/materials.ts), in the solver's units. */
export const MATERIALS: Record<string, Material> = Object.fromEntries(
  MATERIAL_TABLE.map((m) => [
    m.key,
    {
      name: m.key,
      youngs_modulus_mpa: m.youngs_modulus_mpa,
      poisson_ratio: m.poisson_ratio,
      density_kg_m3: m.density_kg_m3,
      thermal_conductivity_w_mk: m.thermal_conductivity_w_mk,
      specific_heat_j_kgk: m.specific_heat_j_kgk,
    },
  ]),
);

/** `material`: a name from the table (or an alias, contracts/materials.ts), or explicit properties (modulus and Poisson required, the rest default to steel's). */
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
  .describe(
    `material name (${Object.keys(MATERIALS).join(', ')}) or {youngs_modulus_mpa, poisson_ratio, density_kg_m3, thermal_conductivity_w_mk, specific_heat_j_kgk}`,
  );

/** Resolves `material`; an unknown name is invalid arguments listing the known ones. */
export function resolveMaterial(arg: z.output<typeof MaterialArgSchema>): Material {
  if (typeof arg === 'string') {
    const found = materialByName(arg);
    const m = found && MATERIALS[found.key];
    if (!m)
      throw new InvalidArgumentsError(
        `unknown material ${JSON.stringify(arg)}; known: ${Object.keys(MATERIALS).join(', ')}, or pass {youngs_modulus_mpa, poisson_ratio, ...}`,
        { material: arg },
      );
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
