import type { Part, PartFunction, PartPin } from './parts.types.ts';

/** Passive parts of the reference circuit (0603, standard values). Prices: see PRICE_SOURCE in parts.data.ts. */
const passive = (key: string, mpn: string, manufacturer: string, value: string, fn: PartFunction, fp: string) => ({
  key,
  manufacturer,
  mpn,
  value,
  functions: [fn],
  lib_id: fn === 'pullup' ? 'Device:R' : 'Device:C',
  footprint: fp,
  datasheet: `${manufacturer} ${mpn}`,
  pins: [] as PartPin[],
});

/** The passives, by the part key SUPPORT names. */
export const PASSIVES: Part[] = [
  {
    ...passive('c-100n', 'GRM188R71C104KA01D', 'Murata', '100n', 'decoupling', 'Capacitor_SMD:C_0603_1608Metric'),
    price_eur: 0.1,
    mass_g: 0.005,
  },
  {
    ...passive('c-1u', 'GRM188R61E105KA12D', 'Murata', '1u', 'decoupling', 'Capacitor_SMD:C_0603_1608Metric'),
    price_eur: 0.1,
    mass_g: 0.005,
  },
  {
    ...passive('r-10k', 'RC0603FR-0710KL', 'Yageo', '10k', 'pullup', 'Resistor_SMD:R_0603_1608Metric'),
    resistance_ohm: 10_000,
    price_eur: 0.1,
    mass_g: 0.005,
  },
];

/** A passive the reference circuit adds around a part: which part, between which nets, and why (datasheet advice). */
export interface Support {
  part: string;
  nets: [string, string];
  why: string;
}

/** The support circuit of each active part, from its datasheet's application circuit. */
export const SUPPORT: Record<string, Support[]> = {
  'atmega328p-au': [
    { part: 'c-100n', nets: ['+3V3', 'GND'], why: 'VCC pin 4 decoupling' },
    { part: 'c-100n', nets: ['+3V3', 'GND'], why: 'VCC pin 6 decoupling' },
    { part: 'c-100n', nets: ['+3V3', 'GND'], why: 'AVCC decoupling' },
    { part: 'c-100n', nets: ['AREF', 'GND'], why: 'AREF filter (internal reference)' },
    { part: 'r-10k', nets: ['+3V3', 'RESET'], why: 'RESET pull-up' },
  ],
  'sht31-dis-b': [
    { part: 'c-100n', nets: ['+3V3', 'GND'], why: 'VDD decoupling, 100 nF close to the sensor (datasheet 3.1)' },
    { part: 'r-10k', nets: ['+3V3', 'SDA'], why: 'I2C SDA pull-up' },
    { part: 'r-10k', nets: ['+3V3', 'SCL'], why: 'I2C SCL pull-up' },
  ],
  'ap2112k-3.3': [
    { part: 'c-1u', nets: ['+5V', 'GND'], why: 'LDO input capacitor, 1 uF' },
    { part: 'c-1u', nets: ['+3V3', 'GND'], why: 'LDO output capacitor, 1 uF (stability)' },
  ],
};
