/**
 * The parts table of the deterministic electronics phase: real parts, each with the datasheet values the power budget
 * uses (the row and condition named in `current_basis`), its KiCad 6 library symbol and footprint names, and its pins
 * with the net each lands on in the reference circuit (no `net`: a no-connect). Nets are literal: `+5V` (USB VBUS),
 * `+3V3` (the regulated rail), `GND`, and the signal nets.
 *
 * Prices: single-unit distributor list prices in EUR as read by the author from Mouser / DigiKey listings in 2024
 * (PRICE_SOURCE); this service does not fetch prices, so they are a first-order estimate to be confirmed with a
 * distributor quote before release (the manufacturing phase). A price is never computed or guessed here.
 */

import type { Part, PartFunction, PartPin } from './parts.types.ts';
import { PASSIVES } from './passives.data.ts';

export type { Part, PartFunction, PartPin } from './parts.types.ts';
export { SUPPORT, type Support } from './passives.data.ts';

export const PRICE_SOURCE = {
  basis: 'single-unit list price, EUR',
  source: 'Mouser / DigiKey listings read by the author, 2024; not fetched by the service — confirm with a quote',
  date: '2024',
} as const;

/** Where the part masses come from: typical package masses, not weighed. */
export const MASS_SOURCE = {
  basis:
    'typical mass of the package outline (TQFP-32 7x7 mm 0.18 g, DFN 2.5x2.5 mm 0.015 g, SOT-23-5 0.015 g, micro-B receptacle 0.5 g, 2x3 2.54 mm header 0.9 g, 0603 passive 0.005 g), read by the author from manufacturer package data; not weighed — confirm on the built board',
} as const;

const bidi = (number: string, name: string, net?: string): PartPin => ({ number, name, type: 'bidirectional', net });
const pwr = (number: string, name: string, net: string): PartPin => ({ number, name, type: 'power_in', net });

/** ATmega328P-AU (TQFP-32): internal 8 MHz RC oscillator, so XTAL1/XTAL2 stay free; programmed over ISP (J2). */
const ATMEGA328P: Part = {
  key: 'atmega328p-au',
  manufacturer: 'Microchip',
  mpn: 'ATMEGA328P-AU',
  value: 'ATmega328P-AU',
  functions: ['microcontroller'],
  lib_id: 'MCU_Microchip_ATmega:ATmega328P-AU',
  footprint: 'Package_QFP:TQFP-32_7x7mm_P0.8mm',
  datasheet: 'Microchip DS40002061B, ATmega48A/PA/88A/PA/168A/PA/328/P',
  supply_v: [2.7, 5.5],
  current_ma_max: 9,
  current_basis:
    'ATmega328P DC characteristics, power supply current, active 8 MHz at VCC = 5 V: max 9 mA (bounds 8 MHz at 3.3 V, supply current rises with VCC); 0-10 MHz speed grade at 2.7-5.5 V',
  price_eur: 2.6,
  mass_g: 0.18,
  pins: [
    bidi('1', 'PD3'),
    bidi('2', 'PD4'),
    pwr('3', 'GND', 'GND'),
    pwr('4', 'VCC', '+3V3'),
    pwr('5', 'GND', 'GND'),
    pwr('6', 'VCC', '+3V3'),
    bidi('7', 'XTAL1/PB6'),
    bidi('8', 'XTAL2/PB7'),
    ...['PD5', 'PD6', 'PD7', 'PB0', 'PB1', 'PB2'].map((n, i) => bidi(String(9 + i), n)),
    bidi('15', 'MOSI/PB3', 'MOSI'),
    bidi('16', 'MISO/PB4', 'MISO'),
    bidi('17', 'SCK/PB5', 'SCK'),
    pwr('18', 'AVCC', '+3V3'),
    { number: '19', name: 'ADC6', type: 'input' },
    { number: '20', name: 'AREF', type: 'passive', net: 'AREF' },
    pwr('21', 'GND', 'GND'),
    { number: '22', name: 'ADC7', type: 'input' },
    ...['PC0', 'PC1', 'PC2', 'PC3'].map((n, i) => bidi(String(23 + i), n)),
    bidi('27', 'SDA/PC4', 'SDA'),
    bidi('28', 'SCL/PC5', 'SCL'),
    bidi('29', '~{RESET}/PC6', 'RESET'),
    bidi('30', 'RXD/PD0'),
    bidi('31', 'TXD/PD1'),
    bidi('32', 'PD2'),
  ],
};

/** SHT31-DIS-B (DFN-8): ADDR low (I2C address 0x44), ALERT and nRESET left floating as the datasheet recommends. */
const SHT31: Part = {
  key: 'sht31-dis-b',
  manufacturer: 'Sensirion',
  mpn: 'SHT31-DIS-B2.5KS',
  value: 'SHT31-DIS',
  functions: ['temperature', 'humidity'],
  lib_id: 'Sensor_Humidity:SHT31-DIS',
  footprint: 'Sensor_Humidity:Sensirion_DFN-8-1EP_2.5x2.5mm_P0.5mm_EP1.1x1.7mm',
  datasheet: 'Sensirion Datasheet SHT3x-DIS (https://sheetsdata.com/parts/SHT31)',
  supply_v: [2.15, 5.5],
  current_ma_max: 1.5,
  current_basis: 'SHT3x-DIS electrical specifications, supply current while measuring: max 1500 uA (heater off)',
  price_eur: 4.9,
  mass_g: 0.015,
  pins: [
    bidi('1', 'SDA', 'SDA'),
    { number: '2', name: 'ADDR', type: 'input', net: 'GND' },
    { number: '3', name: 'ALERT', type: 'output' },
    bidi('4', 'SCL', 'SCL'),
    pwr('5', 'VDD', '+3V3'),
    { number: '6', name: '~{RESET}', type: 'input' },
    { number: '7', name: 'R', type: 'passive', net: 'GND' },
    pwr('8', 'VSS', 'GND'),
    { number: '9', name: 'EP', type: 'passive', net: 'GND' },
  ],
};

/** AP2112K-3.3 (SOT-23-5): EN tied to VIN, so the rail is up whenever USB is plugged in. */
const AP2112K: Part = {
  key: 'ap2112k-3.3',
  manufacturer: 'Diodes Incorporated',
  mpn: 'AP2112K-3.3TRG1',
  value: 'AP2112K-3.3',
  functions: ['regulator'],
  lib_id: 'Regulator_Linear:AP2112K-3.3',
  footprint: 'Package_TO_SOT_SMD:SOT-23-5',
  datasheet: 'Diodes Incorporated AP2112 datasheet (600 mA CMOS LDO regulator with enable)',
  regulator: {
    output_v: 3.3,
    rated_ma: 600,
    vin_max_v: 6,
    iq_ma_max: 0.08,
    basis: 'AP2112: output current 600 mA, input up to 6 V, quiescent current 55 uA typ / 80 uA max',
  },
  price_eur: 0.45,
  mass_g: 0.015,
  pins: [
    pwr('1', 'VIN', '+5V'),
    pwr('2', 'GND', 'GND'),
    { number: '3', name: 'EN', type: 'input', net: '+5V' },
    { number: '4', name: 'NC', type: 'no_connect' },
    { number: '5', name: 'VOUT', type: 'power_out', net: '+3V3' },
  ],
};

/** USB micro-B receptacle, power only: the ATmega328P has no USB device, so D-/D+/ID stay unconnected. */
const USB_MICRO_B: Part = {
  key: 'usb-micro-b',
  manufacturer: 'Molex',
  mpn: '105017-0001',
  value: 'USB_B_Micro',
  functions: ['usb_power'],
  lib_id: 'Connector:USB_B_Micro',
  footprint: 'Connector_USB:USB_Micro-B_Molex-105017-0001',
  datasheet: 'Molex 105017-0001 drawing',
  price_eur: 0.75,
  mass_g: 0.5,
  pins: [
    { number: '1', name: 'VBUS', type: 'power_out', net: '+5V' },
    bidi('2', 'D-'),
    bidi('3', 'D+'),
    { number: '4', name: 'ID', type: 'passive' },
    { number: '5', name: 'GND', type: 'power_out', net: 'GND' },
    { number: '6', name: 'Shield', type: 'passive', net: 'GND' },
  ],
};

/** 2x3 AVR ISP header (Atmel AVR910 pinout) for programming the MCU. */
const ISP_HEADER: Part = {
  key: 'isp-2x3',
  manufacturer: 'Wurth Elektronik',
  mpn: '61300621121',
  value: 'AVR-ISP-6',
  functions: ['programming'],
  lib_id: 'Connector_Generic:Conn_02x03_Odd_Even',
  footprint: 'Connector_PinHeader_2.54mm:PinHeader_2x03_P2.54mm_Vertical',
  datasheet: 'Wurth WR-PHD 2.54 mm dual pin header 61300621121',
  price_eur: 0.35,
  mass_g: 0.9,
  pins: [
    { number: '1', name: 'MISO', type: 'passive', net: 'MISO' },
    { number: '2', name: 'VCC', type: 'passive', net: '+3V3' },
    { number: '3', name: 'SCK', type: 'passive', net: 'SCK' },
    { number: '4', name: 'MOSI', type: 'passive', net: 'MOSI' },
    { number: '5', name: 'RST', type: 'passive', net: 'RESET' },
    { number: '6', name: 'GND', type: 'passive', net: 'GND' },
  ],
};

/** The parts the selection draws from, by key. */
export const PARTS: Record<string, Part> = Object.fromEntries(
  [ATMEGA328P, SHT31, AP2112K, USB_MICRO_B, ISP_HEADER, ...PASSIVES].map((p) => [p.key, p]),
);
