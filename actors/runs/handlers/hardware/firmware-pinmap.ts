/** One part of `eda.get_pin_mapping`'s answer (units merged): its pins with number, name and net (null: no net). */
export interface MappedPart {
  reference: string;
  value: string;
  footprint: string;
  lib_id: string;
  pins: { number: string; name: string; net: string | null }[];
}

/** What the firmware does with one MCU pin. */
export type PinUse =
  | 'i2c_sda'
  | 'i2c_scl'
  | 'isp_mosi'
  | 'isp_miso'
  | 'isp_sck'
  | 'reset'
  | 'analog_reference'
  | 'power'
  | 'ground'
  | 'gpio'
  | 'unused';

/** One row of the pin map: the pad, the symbol's pin name, the net, the port bit (e.g. PC4) and the firmware's use. */
export interface McuPin {
  number: string;
  name: string;
  net: string | null;
  port: string | null;
  use: PinUse;
  note: string;
}

/** The MCU's pin map and the I2C sensor it talks to (address from the sensor's ADDR strap). */
export interface PinMap {
  mcu: { reference: string; value: string; footprint: string };
  sensor: { reference: string; value: string; i2c_address: number; address_basis: string };
  pins: McuPin[];
}

/** A pin map that cannot be built from the schematic: why. */
export type PinMapResult = { ok: true; map: PinMap } | { ok: false; reason: string };

const bare = (net: string | null) => (net ?? '').replace(/^\//, '');
const PORT = /^P[A-D][0-7]$/;

/** The MCU's pins by what they carry; `peers` names the other pins on each net (`J2.4`), for the notes. */
function usage(p: MappedPart['pins'][number], peers: string[], sensor: string): { use: PinUse; note: string } {
  const net = bare(p.net);
  const to = peers.length ? ` (${peers.join(', ')})` : '';
  if (p.net === null) return { use: 'unused', note: 'not connected' };
  if (net === 'GND') return { use: 'ground', note: 'ground' };
  if (net.startsWith('+')) return { use: 'power', note: `${p.name} supply from ${net}` };
  if (net === 'SDA') return { use: 'i2c_sda', note: `I2C data to ${sensor}${to}` };
  if (net === 'SCL') return { use: 'i2c_scl', note: `I2C clock to ${sensor}${to}` };
  if (net === 'MOSI') return { use: 'isp_mosi', note: `ISP programming MOSI${to}; free for SPI at run time` };
  if (net === 'MISO') return { use: 'isp_miso', note: `ISP programming MISO${to}; free for SPI at run time` };
  if (net === 'SCK') return { use: 'isp_sck', note: `ISP programming SCK${to}; free for SPI at run time` };
  if (net === 'RESET') return { use: 'reset', note: `reset, held high by its pull-up; ISP drives it${to}` };
  if (net === 'AREF') return { use: 'analog_reference', note: `ADC reference, decoupled${to}` };
  return { use: 'gpio', note: `general purpose on net ${net}${to}` };
}

/**
 * The pin map of the board's microcontroller (the part whose symbol comes from an `MCU_` library) from
 * `eda.get_pin_mapping`: every MCU pin with its use, and the SHT3x sensor on the MCU's SDA net with its I2C address
 * (datasheet table 7: ADDR to VSS 0x44, to VDD 0x45). Pure and deterministic.
 */
export function mcuPinMap(parts: MappedPart[]): PinMapResult {
  const mcu = parts.find((p) => p.lib_id.startsWith('MCU_'));
  if (!mcu) return { ok: false, reason: 'the schematic has no microcontroller (no part from an MCU_ library)' };
  const sda = mcu.pins.find((p) => bare(p.net) === 'SDA')?.net;
  const sensorPart = parts.find((p) => p !== mcu && p.pins.some((q) => q.name === 'SDA' && q.net === sda));
  if (!sda || !sensorPart) return { ok: false, reason: `${mcu.reference} has no I2C sensor on an SDA net` };
  if (!/^SHT3/.test(sensorPart.value))
    return { ok: false, reason: `the firmware templates drive the SHT3x only, not ${sensorPart.value}` };
  const addrNet = bare(sensorPart.pins.find((p) => p.name === 'ADDR')?.net ?? null);
  const i2c_address = addrNet === 'GND' ? 0x44 : addrNet.startsWith('+') ? 0x45 : null;
  if (i2c_address === null)
    return { ok: false, reason: `the ADDR pin of ${sensorPart.reference} is on ${addrNet || 'no net'}, not strapped` };
  const byNet = new Map<string, string[]>();
  for (const part of parts)
    for (const p of part.pins)
      if (p.net) byNet.set(p.net, [...(byNet.get(p.net) ?? []), `${part.reference}.${p.number}`]);
  const sensor = `${sensorPart.reference} ${sensorPart.value} at 0x${i2c_address.toString(16)}`;
  const pins = mcu.pins.map((p) => {
    const peers = p.net && !bare(p.net).startsWith('+') && bare(p.net) !== 'GND' ? byNet.get(p.net)! : [];
    const u = usage(
      p,
      peers.filter((x) => !x.startsWith(`${mcu.reference}.`)),
      sensor,
    );
    return {
      number: p.number,
      name: p.name,
      net: p.net,
      port: p.name.split('/').find((t) => PORT.test(t)) ?? null,
      ...u,
    };
  });
  return {
    ok: true,
    map: {
      mcu: { reference: mcu.reference, value: mcu.value, footprint: mcu.footprint },
      sensor: {
        reference: sensorPart.reference,
        value: sensorPart.value,
        i2c_address,
        address_basis: `ADDR pin on ${addrNet} (SHT3x-DIS datasheet table 7)`,
      },
      pins,
    },
  };
}
