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
  /** Sheet instances checked (human paths). */
  sheets: string[];
  elapsed_ms: number;
}

/**
 * KiCad 6's default severity of each check (ERC_SETTINGS constructor: everything is an error except the warnings it
 * lists, among them ERCE_GLOBLABEL, ERCE_DRIVER_CONFLICT, ERCE_NOCONNECT_CONNECTED and ERCE_NOCONNECT_NOT_CONNECTED). pin_to_pin takes its
 * severity from the pin conflict matrix instead.
 */
export const ERC_SEVERITY: Record<Exclude<ErcType, 'pin_to_pin'>, 'error' | 'warning'> = {
  pin_not_connected: 'error',
  pin_not_driven: 'error',
  power_pin_not_driven: 'error',
  no_connect_connected: 'warning',
  no_connect_dangling: 'warning',
  duplicate_reference: 'error',
  unannotated: 'error',
  different_unit_value: 'error',
  different_unit_footprint: 'error',
  label_dangling: 'error',
  global_label_single: 'warning',
  hier_label_mismatch: 'error',
  driver_conflict: 'warning',
  wire_dangling: 'error',
};
