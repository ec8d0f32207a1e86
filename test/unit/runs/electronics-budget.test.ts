import { describe, expect, it } from 'vitest';
import { partsCost, powerBudget } from '../../../actors/runs/handlers/hardware/electronics-budget.ts';
import { selectParts, type Placed } from '../../../actors/runs/handlers/hardware/electronics-select.ts';
import { PARTS } from '../../../actors/runs/handlers/hardware/parts.data.ts';

function reference(): Placed[] {
  const sel = selectParts('a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB');
  if (!sel.ok) throw new Error(sel.unserved.join('; '));
  return sel.placed;
}

describe('power budget', () => {
  it('sums the datasheet maxima and the pull-ups held low, and closes against the LDO and one USB unit load', () => {
    const b = powerBudget(reference(), 3.3);
    // 9 mA (ATmega328P, 8 MHz) + 1.5 mA (SHT31 measuring) + 3 x 3.3 V / 10 kOhm
    expect(b.lines.map((l) => [l.ref, l.current_ma])).toEqual([
      ['U1', 9],
      ['U2', 1.5],
      ['R1', 0.33],
      ['R2', 0.33],
      ['R3', 0.33],
    ]);
    expect(b.load_ma).toBe(11.49);
    expect(b.rail_mw).toBe(37.92);
    expect(b.usb_ma).toBe(11.57); // + 0.08 mA LDO quiescent
    expect(b.regulator.dissipation_mw).toBe(22.83); // (5.25 - 3.3) V x 11.49 mA + 5.25 V x 0.08 mA
    expect(b.checks.map((c) => [c.name, c.limit, c.pass])).toEqual([
      ['rail load vs regulator rating', 480, true],
      ['USB current vs one unit load', 80, true],
      ['USB current vs 500 mA', 400, true],
      ['regulator input vs its maximum', 6, true],
    ]);
    expect(b.closed).toBe(true);
  });

  it('does not close when a load exceeds one USB unit load with the margin', () => {
    const heavy = reference().map((p) => (p.ref === 'U1' ? { ...p, part: { ...p.part, current_ma_max: 84 } } : p));
    const b = powerBudget(heavy, 3.3);
    expect(b.load_ma).toBe(86.49);
    expect(b.checks.find((c) => !c.pass)).toMatchObject({ name: 'USB current vs one unit load', value: 86.57 });
    expect(b.closed).toBe(false);
  });
});

describe('parts cost', () => {
  it('multiplies unit prices by quantity and compares with a budget in EUR only', () => {
    const placed = reference();
    const c = partsCost(placed, { amount: 25, currency: 'EUR' });
    expect(c.lines.find((l) => l.mpn === PARTS['c-100n']!.mpn)).toEqual({
      mpn: 'GRM188R71C104KA01D',
      quantity: 5,
      unit_eur: 0.1,
    });
    expect(c.total_eur).toBe(10.05);
    expect(c.within).toBe(true);
    expect(partsCost(placed, { amount: 10, currency: 'EUR' }).within).toBe(false);
    expect(partsCost(placed, { amount: 25, currency: 'USD' }).within).toBeNull();
    expect(partsCost(placed, null).within).toBeNull();
  });
});
