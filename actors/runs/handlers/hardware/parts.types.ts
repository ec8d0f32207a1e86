import type { PinType } from '../../../../workers/eda/schematic.types.ts';

/** The functions a request can name that this table can serve. */
export type PartFunction =
  'microcontroller' | 'temperature' | 'humidity' | 'usb_power' | 'regulator' | 'programming' | 'decoupling' | 'pullup';

export interface PartPin {
  number: string;
  name: string;
  type: PinType;
  /** The net of the pin in the reference circuit; absent: marked no-connect. */
  net?: string;
}

export interface Part {
  key: string;
  manufacturer: string;
  mpn: string;
  /** Symbol value on the sheet and in the BOM. */
  value: string;
  functions: PartFunction[];
  lib_id: string;
  footprint: string;
  datasheet: string;
  /** Supply range of the part (V). */
  supply_v?: [number, number];
  /** Worst-case supply current at the board's operating point (mA), with its datasheet row. */
  current_ma_max?: number;
  current_basis?: string;
  /** Regulators: fixed output (V), rated output current (mA), maximum input (V), quiescent current max (mA). */
  regulator?: { output_v: number; rated_ma: number; vin_max_v: number; iq_ma_max: number; basis: string };
  /** Resistors: ohms (pull-up current = rail / R while the line is held low). */
  resistance_ohm?: number;
  price_eur: number;
  /** Typical mass (g) of the package (MASS_SOURCE in parts.data.ts); absent: unknown, so no mass is claimed. */
  mass_g?: number;
  pins: PartPin[];
}
