import { describe, expect, it } from 'vitest';
import { schematicArgs } from '../../../actors/runs/handlers/hardware/electronics-circuit.ts';
import {
  requestedFunctions,
  selectParts,
  statedRail,
} from '../../../actors/runs/handlers/hardware/electronics-select.ts';

const REFERENCE =
  'a wall-mounted environmental sensor: a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';

describe('function detection', () => {
  it('reads the MCU, the two measured quantities and USB from the reference request; the product noun is no function', () => {
    expect(requestedFunctions(REFERENCE)).toEqual({
      served: ['microcontroller', 'temperature', 'humidity', 'usb_power'],
      unserved: [],
    });
    expect(statedRail(REFERENCE)).toBe(3.3);
  });

  it('names what the table has no part for, including an unknown measured quantity', () => {
    expect(
      requestedFunctions('an MCU with a LoRa radio, a CO2 sensor and a radon sensor on batteries').unserved,
    ).toEqual(['CO2 sensing', 'LoRa', 'battery power', 'radon sensing']);
  });
});

describe('part selection', () => {
  it('places the MCU, the sensor, the LDO, USB and ISP connectors and their support passives', () => {
    const sel = selectParts(REFERENCE);
    if (!sel.ok) throw new Error(sel.unserved.join('; '));
    expect(sel.rail_v).toBe(3.3);
    expect(sel.assumptions).toEqual([]);
    expect(sel.placed.filter((p) => !p.nets).map((p) => `${p.ref} ${p.part.mpn}`)).toEqual([
      'U1 ATMEGA328P-AU',
      'U2 SHT31-DIS-B2.5KS',
      'U3 AP2112K-3.3TRG1',
      'J1 105017-0001',
      'J2 61300621121',
    ]);
    const passives = sel.placed.filter((p) => p.nets).map((p) => `${p.ref} ${p.part.value} ${p.nets!.join('-')}`);
    expect(passives).toEqual([
      'C1 100n +3V3-GND',
      'C2 100n +3V3-GND',
      'C3 100n +3V3-GND',
      'C4 100n AREF-GND',
      'R1 10k +3V3-RESET',
      'C5 100n +3V3-GND',
      'R2 10k +3V3-SDA',
      'R3 10k +3V3-SCL',
      'C6 1u +5V-GND',
      'C7 1u +3V3-GND',
    ]);
  });

  it('refuses a rail no regulator of the table gives, and a request without a power source', () => {
    expect(selectParts('a 1.8 V microcontroller with a humidity sensor, powered from USB')).toEqual({
      ok: false,
      unserved: [
        'a microcontroller for a 1.8 V rail',
        'a regulator from USB 5 V to 1.8 V',
        'humidity sensing at 1.8 V',
      ],
    });
    expect(selectParts('a microcontroller with a temperature sensor')).toEqual({
      ok: false,
      unserved: ['a power source this table serves (USB)'],
    });
  });

  it('assumes 3.3 V when no logic voltage is stated, and says so', () => {
    const sel = selectParts('a microcontroller board with a temperature sensor, USB powered');
    expect(sel.ok && sel.assumptions).toEqual(['no logic voltage stated: 3.3 V assumed']);
  });
});

describe('schematic arguments', () => {
  it('lists every pin of every part once: in one net or as a no-connect', () => {
    const sel = selectParts(REFERENCE);
    if (!sel.ok) throw new Error('unserved');
    const args = schematicArgs(sel.placed, 'x/board.kicad_sch', 'board');
    const connected = args.connections.flatMap((c) => c.pins);
    const all = args.components.flatMap((c) => c.pins.map((p) => `${c.reference}.${p.number}`));
    expect([...connected, ...args.no_connect].sort()).toEqual([...all].sort());
    expect(new Set(connected).size).toBe(connected.length);
    expect(args.connections.find((c) => c.net === 'SDA')?.pins).toEqual(['U1.27', 'U2.1', 'R2.2']);
    expect(args.components[1]!.fields).toMatchObject({ Manufacturer: 'Sensirion', MPN: 'SHT31-DIS-B2.5KS' });
  });
});
