/**
 * The templates of the bring-up test plan: limits with their basis, by net name or MPN. The plan generator
 * (manufacturing-plan.ts) instantiates them against the schematic's nets and BOM; nothing here is computed.
 */

/** A rail checked with a DC voltmeter right after first power-on. */
export interface RailCheck {
  net: string;
  label: string;
  nominal_v: number;
  min_v: number;
  max_v: number;
  basis: string;
}

/** The rails of the reference board: USB's VBUS and the regulated 3V3 rail. */
export const RAIL_CHECKS: RailCheck[] = [
  {
    net: '+5V',
    label: 'VBUS',
    nominal_v: 5,
    min_v: 4.75,
    max_v: 5.25,
    basis: 'USB 2.0 VBUS at the device: 4.75-5.25 V',
  },
  {
    net: '+3V3',
    label: '3V3 rail',
    nominal_v: 3.3,
    min_v: 3.201,
    max_v: 3.399,
    basis: 'bring-up limit 3.3 V +/- 3 % (regulator accuracy plus meter and load)',
  },
];

/** First power-on: a current-limited bench supply at one USB unit load, so a short cannot burn the board. */
export const SUPPLY_LIMIT_MA = 100;

/** A microcontroller programmed over ISP, with what its first contact reads back. */
export interface IspTarget {
  mpn: string;
  avrdude_part: string;
  signature: string;
  low_fuse: string;
  /** ISP bit clock (avrdude -B, microseconds) slow enough for the factory 1 MHz clock (SCK < f_cpu / 4). */
  first_bitclock_us: number;
  basis: string;
}

/** The microcontrollers of the parts table, by MPN. */
export const ISP_TARGETS: IspTarget[] = [
  {
    mpn: 'ATMEGA328P-AU',
    avrdude_part: 'm328p',
    signature: '0x1E950F',
    low_fuse: '0xE2',
    first_bitclock_us: 8,
    basis:
      'ATmega328P datasheet: signature bytes 0x1E 0x95 0x0F; ships with the 8 MHz RC oscillator divided by 8 (CKDIV8), so ' +
      'SCK must stay below 250 kHz until the low fuse is 0xE2 (internal 8 MHz RC, CKDIV8 off, as the electronics phase assumed)',
  },
];

/** The ISP header's signals, as nets of the schematic. */
export const ISP_NETS = ['MOSI', 'MISO', 'SCK', 'RESET'] as const;

/** An I2C sensor: its address by the net its address pin is tied to, and what a reading must show on the bench. */
export interface I2cSensor {
  mpn_prefix: string;
  name: string;
  pins: { sda: string; scl: string; addr: string };
  address_by_net: Record<string, number>;
  address_basis: string;
  command: string;
  readings: { quantity: string; unit: string; min: number; max: number; conversion: string }[];
  basis: string;
}

/** The I2C sensors of the parts table, by MPN prefix. */
export const I2C_SENSORS: I2cSensor[] = [
  {
    mpn_prefix: 'SHT31',
    name: 'SHT31',
    pins: { sda: '1', scl: '4', addr: '2' },
    address_by_net: { GND: 0x44, '+3V3': 0x45 },
    address_basis: 'SHT3x-DIS datasheet: 0x44 with ADDR to VSS, 0x45 with ADDR to VDD',
    command: '0x2400 (single shot, high repeatability, no clock stretching)',
    readings: [
      { quantity: 'temperature', unit: 'degC', min: 15, max: 35, conversion: 'T = -45 + 175 * raw / 65535' },
      { quantity: 'relative humidity', unit: '%RH', min: 20, max: 80, conversion: 'RH = 100 * raw / 65535' },
    ],
    basis:
      'Sensirion SHT3x-DIS datasheet: each 16-bit word followed by a CRC-8 (polynomial 0x31, init 0xFF); bench limits ' +
      'are a lab room (15-35 degC, 20-80 %RH)',
  },
];
