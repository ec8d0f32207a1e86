import { describe, expect, it } from 'vitest';
import { partsCost } from '../../../../actors/runs/handlers/hardware/electronics-budget.ts';
import { schematicArgs } from '../../../../actors/runs/handlers/hardware/electronics-circuit.ts';
import { selectParts } from '../../../../actors/runs/handlers/hardware/electronics-select.ts';
import { costBom, costLine, type BomLineIn } from '../../../../actors/runs/handlers/hardware/manufacturing-cost.ts';
import { pinmapOf } from '../../../../actors/runs/handlers/hardware/manufacturing-pinmap.ts';
import { bringUpPlan, type PlanInput } from '../../../../actors/runs/handlers/hardware/manufacturing-plan.ts';

/** The reference board as the electronics phase draws it: its nets ('/'-prefixed as KiCad's netlist names them) and BOM lines. */
function reference() {
  const sel = selectParts('a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB');
  if (!sel.ok) throw new Error(sel.unserved.join('; '));
  const args = schematicArgs(sel.placed, 'x.kicad_sch', 'x');
  const nets = args.connections.map((c) => ({ name: `/${c.net}`, pins: c.pins }));
  const by = new Map<string, BomLineIn>();
  for (const c of args.components) {
    const l = by.get(c.fields.MPN) ?? {
      designators: '',
      references: [],
      quantity: 0,
      value: c.value,
      mpn: c.fields.MPN,
    };
    l.references.push(c.reference);
    l.quantity += 1;
    l.designators = l.references.join(' ');
    by.set(c.fields.MPN, l);
  }
  return { placed: sel.placed, nets, lines: [...by.values()] };
}

const EUR25 = { amount: 25, currency: 'EUR' };

describe('costBom', () => {
  it('prices every line of the reference BOM from the parts table and agrees with the electronics parts cost', () => {
    const { placed, lines } = reference();
    const c = costBom(lines, EUR25);
    expect(c.total_eur).toBe(partsCost(placed, EUR25).total_eur);
    expect(c.total_eur).toBe(10.05);
    expect([c.within, c.headroom_eur, c.unpriced]).toEqual([true, 14.95, []]);
    const caps = c.lines.find((l) => l.mpn === 'GRM188R71C104KA01D')!;
    expect([caps.quantity, caps.unit_price, caps.extended_price, caps.price_currency]).toEqual([5, 0.1, 0.5, 'EUR']);
    expect(caps.price_source).toMatch(/^parts table: Murata GRM188R71C104KA01D, single-unit list price, EUR/);
    for (const l of c.lines) expect(l.extended_price).toBe(Math.round(l.unit_price! * l.quantity * 100) / 100);
    expect(costLine(c)).toBe('BOM cost 10.05 EUR per board vs budget 25 EUR: headroom 14.95 EUR');
  });

  it('leaves a line whose MPN the table lacks unpriced and the verdict undecided, never guessing a price', () => {
    const c = costBom(
      [
        { designators: 'U1', references: ['U1'], quantity: 1, value: 'ATmega328P-AU', mpn: 'ATMEGA328P-AU' },
        { designators: 'U9', references: ['U9'], quantity: 2, value: 'BME280', mpn: 'BME280' },
        { designators: 'R9', references: ['R9'], quantity: 1, value: '10k' },
      ],
      EUR25,
    );
    expect(c.lines.map((l) => [l.designators, l.unit_price, l.extended_price])).toEqual([
      ['U1', 2.6, 2.6],
      ['U9', null, null],
      ['R9', null, null],
    ]);
    expect(c.lines[1]!.price_source).toBe('no price: MPN BME280 is not in the parts table; get a quote');
    expect(c.lines[2]!.price_source).toBe('no price: the line names no MPN');
    expect([c.total_eur, c.within, c.unpriced]).toEqual([2.6, null, ['U9', 'R9']]);
  });

  it('says over when the priced lines alone exceed the budget, and does not compare another currency', () => {
    const { lines } = reference();
    expect(costBom(lines, { amount: 5, currency: 'EUR' })).toMatchObject({ within: false, headroom_eur: -5.05 });
    expect(costLine(costBom(lines, { amount: 5, currency: 'EUR' }))).toContain('vs budget 5 EUR: OVER');
    expect(costBom(lines, { amount: 30, currency: 'USD' })).toMatchObject({ within: null, headroom_eur: null });
    expect(costBom(lines, null)).toMatchObject({ within: null, budget: null });
  });
});

const POWER = { usb_ma: 11.57, rail_v: 3.3 };

describe('bringUpPlan', () => {
  it('plans rails, current, ISP and the SHT31 at 0x44 on the reference board, each with expected value and pass', () => {
    const { nets, lines } = reference();
    const p = bringUpPlan({ nets, lines, power: POWER });
    expect(p.steps.map((s) => `${s.id} ${s.title}`)).toEqual([
      'P1 VBUS (+5V) at first power-on',
      'P2 3V3 rail (+3V3) at first power-on',
      'P3 Supply current from VBUS',
      'F1 ISP first contact with U1 (ATMEGA328P-AU)',
      'F2 Fuses and image of U1',
      'I1 SHT31 U2 present at 0x44',
      'S1 SHT31 U2 temperature reading',
      'S2 SHT31 U2 relative humidity reading',
    ]);
    const [vbus, rail, cur, isp] = p.steps;
    expect(vbus).toMatchObject({ measure_at: 'J1.1 to J1.5', limits: { min: 4.75, max: 5.25, unit: 'V' } });
    expect(rail).toMatchObject({ measure_at: 'J2.2 to J1.5', expected: '3.3 V', limits: { min: 3.201, max: 3.399 } });
    expect(cur).toMatchObject({ limits: { max: 11.57, unit: 'mA' }, expected: '<= 11.57 mA' });
    expect(isp).toMatchObject({ measure_at: 'J2', expected: 'signature 0x1E950F' });
    expect(isp!.procedure).toContain('MOSI J2.4, MISO J2.1, SCK J2.3, RESET J2.5');
    expect(p.steps[5]!.procedure).toContain('address pin U2.2 on GND');
    expect(p.steps[5]!.measure_at).toBe('SDA R2.2, SCL R3.2');
    for (const s of p.steps) expect([s.expected, s.pass].every((x) => x.length > 0)).toBe(true);
    expect(p.open_items).toEqual([
      'no firmware_source delivered: the I2C steps need a bring-up image that polls the sensors',
    ]);
    expect(bringUpPlan({ nets, lines, power: POWER })).toEqual(p);
  });

  it('uses the firmware and its pin map when the firmware phase delivered them', () => {
    const { nets, lines } = reference();
    const p = bringUpPlan({
      nets,
      lines,
      power: POWER,
      firmware: { ref: 'FW-1@1' },
      pinmap: {
        ref: 'PIN-1@1',
        signals: [
          { signal: 'I2C_SDA', pin: 'PC4' },
          { signal: 'SCL', pin: 'PC5' },
        ],
      },
    });
    expect(p.steps.find((s) => s.id === 'F2')!.procedure).toContain(
      'the firmware built from FW-1@1 (no target image was built: build it for the part first)',
    );
    const imaged = bringUpPlan({
      nets,
      lines,
      power: POWER,
      firmware: { ref: 'FW-1@1', image: { hex: 'firmware/r1/build/atmega328p/firmware.hex', flash_bytes: 5560 } },
    });
    expect(imaged.steps.find((s) => s.id === 'F2')!.procedure).toContain(
      'the firmware built from FW-1@1: firmware/r1/build/atmega328p/firmware.hex (5560 bytes of flash; avrdude -p m328p -U flash:w:firmware/r1/build/atmega328p/firmware.hex:i)',
    );
    expect(p.steps.find((s) => s.id === 'I1')!.procedure).toContain('(MCU side per PIN-1@1: SCL PC5)');
    expect(p.open_items).toEqual([]);
    const wrong = bringUpPlan({
      nets,
      lines,
      power: POWER,
      firmware: { ref: 'FW-1@1' },
      pinmap: { ref: 'PIN-1@1', signals: [], i2c_address: 0x45 },
    });
    expect(wrong.open_items).toEqual(["PIN-1@1 addresses 0x45 but U2's ADDR strap selects 0x44"]);
  });

  it("reads the firmware phase's pin map: its pins' nets and ports, and the sensor address it states", () => {
    const pins = [
      { number: '27', name: 'SDA/PC4', net: '/SDA', port: 'PC4', use: 'i2c_sda', note: 'I2C data' },
      { number: '28', name: 'SCL/PC5', net: '/SCL', port: 'PC5', use: 'i2c_scl', note: 'I2C clock' },
      { number: '19', name: 'ADC6', net: null, port: null, use: 'unused', note: 'not connected' },
    ];
    expect(pinmapOf({ mcu: { reference: 'U1' }, sensor: { reference: 'U2', i2c_address: 0x44 }, pins })).toEqual({
      signals: [
        { signal: 'SDA', pin: 'PC4' },
        { signal: 'SCL', pin: 'PC5' },
        { signal: 'ADC6', pin: '19' },
      ],
      i2c_address: 0x44,
    });
    expect(pinmapOf({ pins: 'not a list' })).toEqual({ signals: [] });
  });

  it('names what it cannot plan instead of guessing: address pin on another net, no ISP connector, no rails', () => {
    const nets: PlanInput['nets'] = [
      { name: '/SDA', pins: ['U2.1', 'U1.27'] },
      { name: '/SCL', pins: ['U2.4', 'U1.28'] },
      { name: '/ADDR_SEL', pins: ['U2.2', 'U1.5'] },
      { name: '/MOSI', pins: ['U1.15'] },
    ];
    const lines = [
      { designators: 'U1', quantity: 1, value: 'ATmega328P-AU', mpn: 'ATMEGA328P-AU' },
      { designators: 'U2', quantity: 1, value: 'SHT31-DIS', mpn: 'SHT31-DIS-B2.5KS' },
    ];
    const p = bringUpPlan({ nets, lines, power: POWER, firmware: { ref: 'FW-1@1' } });
    expect(p.steps.map((s) => s.id)).toEqual(['P1']);
    expect(p.open_items).toEqual([
      'no +5V net in the schematic: the VBUS check has nowhere to measure',
      'no +3V3 net in the schematic: the 3V3 rail check has nowhere to measure',
      'the ISP nets MOSI, MISO, SCK, RESET do not all reach a connector: no programming step',
      'U2 SHT31: address pin U2.2 on ADDR_SEL, address undetermined',
    ]);
  });
});
