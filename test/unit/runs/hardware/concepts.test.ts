import { describe, expect, it } from 'vitest';
import { compileIntent } from '../../../../actors/flows/compile.ts';
import { bracketChoice } from '../../../../actors/runs/handlers/hardware/bracket-choice.ts';
import {
  bracketConcepts,
  rateConcept,
  selectConcept,
  tradeTable,
} from '../../../../actors/runs/handlers/hardware/concepts.ts';
import { cantilever } from '../../../../actors/runs/handlers/mech/hand-calc.ts';

const CASE = { mass_kg: 0.4, shock_g: 2, standoff_mm: 50, envelope_mm: [80, 60, 30], safety_factor: 1.5 };

describe('cantilever hand calculation (shared with feasibility)', () => {
  it('gives the textbook root stress and tip deflection', () => {
    // 100 N, 200 mm, 20 x 10 mm steel: I = 1666.7 mm4, sigma = 60 MPa, delta = 100*200^3/(3*210000*1666.7) = 0.762 mm.
    const r = cantilever({ P: 100, L: 200, b: 20, h: 10, E: 210_000 });
    expect(r.I).toBeCloseTo(1666.667, 3);
    expect(r.sigma).toBeCloseTo(60, 6);
    expect(r.delta).toBeCloseTo(0.7619, 4);
  });
});

describe('bracket concepts', () => {
  it('are the stated plate, a 1 mm thinner steel plate and a 1 mm thicker plate of the stated material', () => {
    expect(bracketConcepts('aluminium_6061', 3).map((c) => [c.material, c.thickness_mm])).toEqual([
      ['aluminium_6061', 3],
      ['steel', 2],
      ['aluminium_6061', 4],
    ]);
  });

  it('rate the 3 mm aluminium plate with the feasibility formulas', () => {
    const r = rateConcept(bracketConcepts('aluminium_6061', 3)[0], CASE);
    // P = 0.4 * (1 + 2 x 2) * 9.80665 = 19.613 N (shock amplified by 2) at 50 + 15 = 65 mm; I = 30 * 27 / 12 = 67.5 mm4.
    expect(r.load_n).toBeCloseTo(19.6133, 3);
    expect(r.lever_mm).toBe(65);
    expect(r.stress_mpa).toBeCloseTo((19.6133 * 65 * 1.5) / 67.5, 3);
    expect(r.allowable_mpa).toBeCloseTo(184, 6);
    expect(r.deflection_mm).toBeCloseTo((19.6133 * 65 ** 3) / (3 * 68_900 * 67.5), 4);
    // 80 x 30 x 3 mm of 2700 kg/m3.
    expect(r.mass_kg).toBeCloseTo(0.01944, 5);
    expect(r.feasible).toBe(true);
  });

  it('choose the lightest feasible concept and tabulate all of them', () => {
    const ratings = bracketConcepts('aluminium_6061', 3).map((c) => rateConcept(c, CASE));
    const chosen = selectConcept(ratings);
    expect(chosen?.id).toBe('A');
    const table = tradeTable(ratings, chosen);
    expect(table.split('\n')).toHaveLength(5);
    expect(table).toMatch(/\| A: 3 mm aluminium 6061-T6 \(as stated\) \| 28\.3 \| 184\.0 \|.*\| yes \| yes \|/);
  });

  it('rate the stated 3 mm plate above the allowable at 20 g and the 4 mm plate within it', () => {
    const ratings = bracketConcepts('aluminium_6061', 3).map((c) => rateConcept(c, { ...CASE, shock_g: 20 }));
    // P = 0.4 * 41 * 9.80665 = 160.8 N; 3 mm: 6 P L / (b h^2) = 232 MPa > 184; 4 mm: 130.7 MPa.
    expect(ratings[0]!.stress_mpa).toBeCloseTo((6 * 0.4 * 41 * 9.80665 * 65) / (30 * 9), 3);
    expect(ratings.map((r) => r.feasible)).toEqual([false, false, true]);
    expect(selectConcept(ratings)?.id).toBe('C');
  });

  it('choose none when no concept carries the load', () => {
    const heavy = { ...CASE, mass_kg: 40 };
    const ratings = bracketConcepts('aluminium_6061', 3).map((c) => rateConcept(c, heavy));
    expect(ratings.every((r) => !r.feasible)).toBe(true);
    expect(selectConcept(ratings)).toBeUndefined();
  });
});

describe('bracket choice from a compiled intent', () => {
  const REQUEST =
    'a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a 2 g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';

  it('chooses the stated 3 mm aluminium plate for the reference request, with the safety factor marked assumed', () => {
    const c = bracketChoice(compileIntent(REQUEST));
    expect(c.chosen).toMatchObject({
      id: 'A',
      material: 'aluminium_6061',
      thickness_mm: 3,
      length_mm: 80,
      width_mm: 30,
    });
    expect(c).toMatchObject({ safetyFactor: 1.5, assumedSafetyFactor: true, remedy: undefined });
  });

  it('keeps the stated plate at 20 g, rated infeasible by hand, and names the 4 mm plate as the remedy', () => {
    const c = bracketChoice(compileIntent(REQUEST.replace('2 g shock', '20 g shock')));
    expect(c.chosen).toMatchObject({ id: 'A', thickness_mm: 3, feasible: false });
    expect(c.remedy).toMatchObject({ id: 'C', thickness_mm: 4, feasible: true });
  });

  it('stops as a data failure naming what the request does not state', () => {
    expect(() => bracketChoice(compileIntent('an 80 x 60 x 30 mm aluminium enclosure of 0.4 kg'))).toThrow(
      expect.objectContaining({
        kind: 'data',
        message: expect.stringContaining('the wall standoff, the bracket thickness, the shock level'),
      }),
    );
  });
});
