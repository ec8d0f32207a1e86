import { PARTS } from './parts.data.ts';

/**
 * First-order values the hardware architecture uses beyond what the request states, each with where it comes from.
 * Datasheet values are those of a typical part of the kind the request names; the electronics phase replaces them with
 * the chosen part's. Design choices are marked as such, so a reviewer sees which numbers are policy, not physics.
 */
export interface Sourced {
  value: number;
  unit: string;
  source: string;
}

/** USB supply limits (the request says "powered from USB"). */
export const USB = {
  vbus: { value: 5, unit: 'V', source: 'USB 2.0 specification §7.2.1: VBUS nominal 5 V' },
  unitLoad: {
    value: 100,
    unit: 'mA',
    source:
      'USB 2.0 specification §7.2.1: one unit load (100 mA), the most a bus-powered device may draw unconfigured, so it works on any port',
  },
} satisfies Record<string, Sourced>;

const SENSOR = PARTS['sht31-dis-b'];
const LDO = PARTS['ap2112k-3.3'].regulator!;

/**
 * Typical parts of the kinds the request names: the electronics phase's parts table (parts.data.ts), worst-case
 * values, so the architecture's budget and the electronics budget read the same numbers.
 */
export const TYPICAL = {
  thSensorCurrent: { value: SENSOR.current_ma_max!, unit: 'mA', source: `${SENSOR.mpn}: ${SENSOR.current_basis!}` },
  ldoQuiescent: { value: LDO.iq_ma_max, unit: 'mA', source: `AP2112K-3.3 quiescent current, maximum (${LDO.basis})` },
} satisfies Record<string, Sourced>;

/** Physical constants. */
export const STANDARD_GRAVITY: Sourced = {
  value: 9.80665,
  unit: 'm/s2',
  source: 'standard gravity (3rd CGPM, 1901)',
};

/** Choices made at architecture, stated as choices. */
export const CHOICES = {
  reserve: {
    value: 0.2,
    unit: 'fraction',
    source: 'design choice: 20 % of each limit held in reserve at architecture',
  },
  shockAmplification: {
    value: 2,
    unit: 'factor',
    source:
      'design choice: the stated shock is applied quasi-statically with a dynamic amplification of 2, the upper bound of a single-degree-of-freedom response to a suddenly applied load (the request states no shock duration)',
  },
  board: {
    value: 5.9,
    unit: 'g',
    source:
      'design choice: a 50 x 40 mm board of 1.6 mm FR-4 (1850 kg/m3): 3200 mm3, 5.9 g bare, before the imported layout gives its outline',
  },
  housingWall: {
    value: 2,
    unit: 'mm',
    source: 'design choice: a 2 mm housing wall, common for moulded or printed enclosures',
  },
} satisfies Record<string, Sourced>;
