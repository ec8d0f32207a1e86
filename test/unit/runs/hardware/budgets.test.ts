import { describe, expect, it } from 'vitest';
import { budgetConstraints } from '../../../../actors/runs/handlers/hardware/architecture.ts';
import { costBudget, massBudget, powerBudget } from '../../../../actors/runs/handlers/hardware/budgets.ts';
import { hardwareFacts } from '../../../../actors/runs/handlers/hardware/request-facts.ts';

const REQUEST =
  'a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a 2 g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';

const sum = (xs: { value: number }[]) => xs.reduce((s, a) => s + a.value, 0);

describe('hardware request facts', () => {
  it('reads the quantities the intent compiler leaves out of the reference request', () => {
    expect(hardwareFacts(REQUEST)).toEqual({
      mass_kg: 0.4,
      standoff_mm: 50,
      bracket_thickness_mm: 3,
      shock_g: 2,
      logic_v: 3.3,
      power_source: 'usb',
      sensed: ['temperature', 'humidity'],
    });
  });

  it('leaves what the text does not say null and reads grams as mass, not a g-load', () => {
    const f = hardwareFacts('a 250 g box on a bracket 4 mm thick, battery powered');
    expect(f).toMatchObject({ mass_kg: 0.25, bracket_thickness_mm: 4, standoff_mm: null, shock_g: null });
    expect(f.power_source).toBeNull();
    expect(f.logic_v).toBeNull();
  });
});

describe('hardware budgets', () => {
  it('mass: the ABS housing shell is computed and the rest allocated within the 0.4 kg less 20 % reserve', () => {
    const b = massBudget(0.4, [80, 60, 30]);
    // 80*60*30 - 76*56*26 = 33 344 mm3 of ABS at 1050 kg/m3 = 0.035 kg.
    expect(b.allocations.find((a) => a.item === 'housing shell')!.value).toBe(0.035);
    expect(b.closes).toBe(true);
    expect(sum(b.allocations)).toBeLessThanOrEqual(0.4 * 0.8 + 1e-9);
    expect(b.total).toBeCloseTo(0.319, 6);
    expect(b.margin).toBeCloseTo(0.081, 6);
  });

  it('power: sensor and LDO from datasheets, the MCU board gets the rest of one USB unit load', () => {
    const b = powerBudget();
    expect(b.limit).toBe(100);
    const mcu = b.allocations.find((a) => a.item.startsWith('MCU'))!;
    // 80 mA available, less 1.5 mA sensor and 0.08 mA LDO quiescent (maxima of the parts table), rounded down to 0.1 mA.
    expect(mcu.value).toBe(78.4);
    expect(b.total).toBeCloseTo(79.98, 6);
    expect(b.total).toBeLessThanOrEqual(80);
    expect(b.allocations.every((a) => a.basis.length > 10)).toBe(true);
  });

  it('cost: 25 EUR less 20 % split over the subsystems of the board (the BOM), rounded down to the cent', () => {
    const b = costBudget(25, 'EUR');
    expect(b.allocations.filter((a) => a.value > 0).map((a) => a.value)).toEqual([10, 10]);
    expect(b.total).toBeCloseTo(20, 6);
    expect(b.closes).toBe(true);
  });

  it('does not close when a known item alone exceeds the limit', () => {
    expect(massBudget(0.02, [80, 60, 30]).closes).toBe(false);
  });

  it('turns a budget into derived constraints that name their parent, with the total within the reserve', () => {
    const cs = budgetConstraints(costBudget(25, 'EUR'), 'CS-1@1');
    expect(cs.at(-1)).toMatchObject({ id: 'DER-COST-TOTAL', operator: '<=', limit: 20, unit: 'EUR' });
    expect(cs.every((c) => c.message.startsWith('derived from CS-1@1'))).toBe(true);
    expect(new Set(cs.map((c) => c.metric)).size).toBe(cs.length);
  });
});
