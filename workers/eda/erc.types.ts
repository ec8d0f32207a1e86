import type { Point } from './schematic.types.ts';

export const ERC_TYPES = [
  'pin_to_pin',
  'pin_not_connected',
  'pin_not_driven',
  'power_pin_not_driven',
  'no_connect_connected',
  'no_connect_dangling',
  'duplicate_reference',
  'unannotated',
  'different_unit_value',
  'different_unit_footprint',
  'label_dangling',
  'global_label_single',
  'global_label_dangling',
  'hier_label_mismatch',
  'driver_conflict',
  'wire_dangling',
] as const;
export type ErcType = (typeof ERC_TYPES)[number];

export interface ErcItem {
  kind: 'pin' | 'label' | 'symbol' | 'sheet_pin' | 'no_connect';
  reference?: string;
  pin?: string;
  text?: string;
  position_mm: Point;
}

export interface ErcViolation {
  type: ErcType;
  /** KiCad's name of the check (its settings key, as kicad-cli's JSON `type` and the .kicad_pro write it). */
  rule: KicadRule;
  severity: 'error' | 'warning';
  message: string;
  /** Human sheet path of the instance where KiCad puts the marker ('/', '/modul/'). */
  sheet: string;
  position_mm: Point;
  items: ErcItem[];
}

export interface ErcReport {
  /** No errors (warnings allowed). */
  passed: boolean;
  error_count: number;
  warning_count: number;
  by_type: Partial<Record<ErcType, number>>;
  violations: ErcViolation[];
  /** Violations the project's `erc_exclusions` left out. */
  excluded_count: number;
  /** Sheet instances checked (human paths). */
  sheets: string[];
  elapsed_ms: number;
}

/**
 * KiCad's name of each check (ERC_ITEM settings keys, kicad-cli's `type`) where ours differs: the rest are the same
 * words. A project's `erc.rule_severities` is keyed by these names.
 */
export const KICAD_RULE = {
  pin_to_pin: 'pin_to_pin',
  pin_not_connected: 'pin_not_connected',
  pin_not_driven: 'pin_not_driven',
  power_pin_not_driven: 'power_pin_not_driven',
  no_connect_connected: 'no_connect_connected',
  no_connect_dangling: 'no_connect_dangling',
  duplicate_reference: 'duplicate_reference',
  unannotated: 'unannotated',
  different_unit_value: 'unit_value_mismatch',
  different_unit_footprint: 'different_unit_footprint',
  label_dangling: 'label_dangling',
  global_label_single: 'single_global_label',
  global_label_dangling: 'global_label_dangling',
  hier_label_mismatch: 'hier_label_mismatch',
  driver_conflict: 'multiple_net_names',
  wire_dangling: 'wire_dangling',
} as const satisfies Record<ErcType, string>;
export type KicadRule = (typeof KICAD_RULE)[ErcType];

export type RuleSeverity = 'error' | 'warning' | 'ignore';

/**
 * KiCad 9's default severity of each check run here (ERC_SETTINGS constructor: everything is an error but the
 * warnings and ignores it lists; a project file without a rule keeps this). pin_to_pin is only ever `ignore` or not:
 * each conflict takes error or warning from the pin conflict matrix (ERC_SETTINGS::GetSeverity).
 */
export const KICAD9_SEVERITY: Record<KicadRule, RuleSeverity> = {
  pin_to_pin: 'warning',
  pin_not_connected: 'error',
  pin_not_driven: 'error',
  power_pin_not_driven: 'error',
  no_connect_connected: 'warning',
  no_connect_dangling: 'warning',
  duplicate_reference: 'error',
  unannotated: 'error',
  unit_value_mismatch: 'error',
  different_unit_footprint: 'error',
  label_dangling: 'error',
  single_global_label: 'ignore',
  global_label_dangling: 'warning',
  hier_label_mismatch: 'error',
  multiple_net_names: 'warning',
  wire_dangling: 'error',
};
