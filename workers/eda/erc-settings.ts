import { z } from 'zod';
import { PIN_CONFLICT_MATRIX, type PinConflict } from './erc-matrix.ts';
import { KICAD9_SEVERITY, KICAD_RULE, type KicadRule, type RuleSeverity } from './erc.types.ts';

/**
 * The ERC settings of a KiCad project (its .kicad_pro's `erc` object), as the adapter read them
 * (actors/adapters/eda/erc-project.ts): a severity per KiCad rule name, the pin conflict matrix, and the excluded
 * markers by rule and position. Absent: KiCad 9's defaults, as kicad-cli uses without a project file.
 */
export const ErcSettingsSchema = z.object({
  /** KiCad rule name to severity; rules not named keep KiCad 9's default. */
  severities: z.record(z.string(), z.enum(['error', 'warning', 'ignore'])),
  /** 12 x 12, in KiCad's pin type order (erc-matrix.ts); absent: KiCad's default matrix. */
  pin_map: z
    .array(z.array(z.enum(['ok', 'warning', 'error'])).length(12))
    .length(12)
    .optional(),
  /** Excluded markers: KiCad rule name and marker position in schematic units (100 nm, as the .kicad_pro writes). */
  exclusions: z.array(z.object({ rule: z.string(), x: z.number(), y: z.number() })),
});
export type ErcSettings = z.infer<typeof ErcSettingsSchema>;

/** What the checks ask of the settings. */
export interface ErcRules {
  /** The severity of a check (`ignore`: not reported). pin_to_pin: the matrix's verdict unless ignored. */
  severity(rule: KicadRule, verdict?: 'error' | 'warning'): RuleSeverity;
  /** The pin conflict matrix's verdict for two pin types (indexes in KiCad's order). */
  matrix: readonly (readonly PinConflict[])[];
  /** The marker of `rule` at this point (mm) is excluded by the project. */
  excluded(rule: KicadRule, at: { x: number; y: number }): boolean;
}

/** Schematic internal units per mm (KiCad's schematic IU is 100 nm). */
const IU_PER_MM = 10_000;

/** The rules of a project's settings, or KiCad 9's defaults. */
export function ercRules(settings?: ErcSettings): ErcRules {
  const sev = settings?.severities ?? {};
  const excluded = new Set((settings?.exclusions ?? []).map((e) => `${e.rule}|${Math.round(e.x)}|${Math.round(e.y)}`));
  return {
    severity(rule, verdict) {
      const set = Object.hasOwn(sev, rule) ? sev[rule]! : KICAD9_SEVERITY[rule];
      if (rule === KICAD_RULE.pin_to_pin) return set === 'ignore' ? 'ignore' : (verdict ?? 'error');
      return set;
    },
    matrix: settings?.pin_map ?? PIN_CONFLICT_MATRIX,
    excluded: (rule, at) =>
      excluded.size > 0 && excluded.has(`${rule}|${Math.round(at.x * IU_PER_MM)}|${Math.round(at.y * IU_PER_MM)}`),
  };
}
