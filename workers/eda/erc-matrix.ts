import { PIN_TYPES, type PinType } from './schematic.types.ts';

/** What ERC says when two pins of these electrical types share a net. */
export type PinConflict = 'ok' | 'warning' | 'error';

/**
 * Row and column order of KiCad's ELECTRICAL_PINTYPE (pin_type.h): input, output, bidirectional, tri_state, passive,
 * free (PT_NIC, "not internally connected"), unspecified, power_in, power_out, open_collector, open_emitter, no_connect.
 */
export const MATRIX_ORDER: readonly PinType[] = PIN_TYPES; // schematic.types.ts lists them in this order

const O = 'ok';
const W = 'warning';
const E = 'error';

/**
 * KiCad 6's default pin conflict matrix, cell for cell: `ERC_SETTINGS::m_defaultPinMap` in
 * eeschema/erc_settings.cpp (KiCad 6.0; unchanged in later releases, where it moved to eeschema/erc/erc_settings.cpp),
 * whose OK / WAR / ERR are 'ok' / 'warning' / 'error' here. The matrix is symmetric. Row by row, as KiCad comments it:
 * - input: warning with unspecified, error with no_connect, ok otherwise;
 * - output: error with output, power_out, open_collector, open_emitter, no_connect; warning with tri_state, unspecified;
 * - bidirectional: warning with unspecified, power_out, open_emitter; error with no_connect;
 * - tri_state: warning with output, unspecified, power_in, open_collector, open_emitter; error with power_out, no_connect;
 * - passive: warning with unspecified, error with no_connect;
 * - free: ok with everything (unspecified included) but no_connect (error);
 * - unspecified: warning with everything but free (ok) and no_connect (error);
 * - power_in: warning with tri_state and unspecified, error with no_connect;
 * - power_out: error with output, tri_state, power_out, open_collector, open_emitter, no_connect; warning with
 *   bidirectional, unspecified;
 * - open_collector: error with output, power_out, no_connect; warning with tri_state, unspecified;
 * - open_emitter: error with output, power_out, no_connect; warning with bidirectional, tri_state, unspecified;
 * - no_connect: error with everything, itself included.
 */
export const PIN_CONFLICT_MATRIX: readonly (readonly PinConflict[])[] = [
  /*              in out bi  3s  pas free uns pwi pwo oc  oe  nc */
  /* input    */ [O, O, O, O, O, O, W, O, O, O, O, E],
  /* output   */ [O, E, O, W, O, O, W, O, E, E, E, E],
  /* bidi     */ [O, O, O, O, O, O, W, O, W, O, W, E],
  /* tri_st   */ [O, W, O, O, O, O, W, W, E, W, W, E],
  /* passive  */ [O, O, O, O, O, O, W, O, O, O, O, E],
  /* free     */ [O, O, O, O, O, O, O, O, O, O, O, E],
  /* unspec   */ [W, W, W, W, W, O, W, W, W, W, W, E],
  /* power_in */ [O, O, O, W, O, O, W, O, O, O, O, E],
  /* power_out*/ [O, E, W, E, O, O, W, O, E, E, E, E],
  /* open_col */ [O, E, O, W, O, O, W, O, E, O, O, E],
  /* open_emi */ [O, E, W, W, O, O, W, O, E, O, O, E],
  /* no_conn  */ [E, E, E, E, E, E, E, E, E, E, E, E],
];

const INDEX = new Map(MATRIX_ORDER.map((t, i) => [t, i]));

/** The verdict for two connected pins, of the default matrix or a project's (same order). */
export function pinConflict(
  a: PinType,
  b: PinType,
  matrix: readonly (readonly PinConflict[])[] = PIN_CONFLICT_MATRIX,
): PinConflict {
  return matrix[INDEX.get(a)!]![INDEX.get(b)!]!;
}

/** KiCad's display names of the electrical types (as its ERC messages write them). */
export const PIN_TYPE_NAMES: Record<PinType, string> = {
  input: 'Input',
  output: 'Output',
  bidirectional: 'Bidirectional',
  tri_state: 'Tri-state',
  passive: 'Passive',
  free: 'Free',
  unspecified: 'Unspecified',
  power_in: 'Power input',
  power_out: 'Power output',
  open_collector: 'Open collector',
  open_emitter: 'Open emitter',
  no_connect: 'Unconnected',
};
