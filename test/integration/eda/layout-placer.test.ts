import { describe, expect, it } from 'vitest';
import { placedBox } from '../../../actors/adapters/eda/layout/geometry.ts';
import { place, PlacementError, type PlaceProblem, ruleBreaks } from '../../../actors/adapters/eda/layout/placer.ts';
import type { PlacePart } from '../../../actors/adapters/eda/layout/roles.ts';

/**
 * The placer on its own (no KiCad): deterministic for a seed, its hard rules kept (checked by its own exact rule
 * check and by the boxes), connectors flush with an edge facing out, and an impossible outline refused.
 */
const part = (ref: string, role: PlacePart['role'], w: number, h: number, pads: PlacePart['pads']): PlacePart => ({
  ref,
  role,
  box: { x1: -w / 2, y1: -h / 2, x2: w / 2, y2: h / 2 },
  pads,
});
const two = (a: string, b: string) => [
  { number: '1', x: -0.8, y: 0, net: a },
  { number: '2', x: 0.8, y: 0, net: b },
];

function problem(width = 40, height = 30): PlaceProblem {
  const parts = [
    part('U1', 'ic', 10, 10, [
      { number: '1', x: -4, y: -1, net: '+3V3' },
      { number: '2', x: -4, y: 1, net: 'GND' },
      { number: '3', x: 4, y: 0, net: 'SDA' },
    ]),
    part('U2', 'sensor', 3, 3, [
      { number: '1', x: -1, y: 0, net: '+3V3' },
      { number: '2', x: 1, y: 0, net: 'SDA' },
    ]),
    part('U3', 'regulator', 3, 3.5, [
      { number: '1', x: -1, y: 0, net: '+5V' },
      { number: '2', x: 1, y: 0, net: '+3V3' },
    ]),
    // A connector whose pins sit at the top of its courtyard: its bottom side is the one to face out.
    part('J1', 'connector', 8, 6, [
      { number: '1', x: -1, y: -2, net: '+5V' },
      { number: '2', x: 1, y: -2, net: 'GND' },
    ]),
    part('C1', 'decoupling', 3.2, 1.5, two('+3V3', 'GND')),
    part('C2', 'decoupling', 3.2, 1.5, two('+3V3', 'GND')),
  ];
  return {
    parts,
    outline: { width, height },
    rules: { edge_clearance: 0.5, courtyard_gap: 0.5, heat_distance: 15 },
    pairs: [
      { cap: 'C1', ic: 'U1', pin: '1', net: '+3V3' },
      { cap: 'C2', ic: 'U2', pin: '1', net: '+3V3' },
    ],
  };
}

describe('the simulated-annealing placer', () => {
  it('gives the same placement for the same seed, another for another seed', () => {
    const a = place(problem(), { seed: 7 });
    const b = place(problem(), { seed: 7 });
    const c = place(problem(), { seed: 8 });
    expect(b.placements).toEqual(a.placements);
    expect(c.placements).not.toEqual(a.placements);
  });

  it('keeps its hard rules: no courtyards closer than the gap, all inside, connectors flush facing out', () => {
    const p = problem();
    const r = place(p, { seed: 1 });
    expect(ruleBreaks(p, r.placements)).toEqual([]);
    const boxes = r.placements.map((pl, i) => placedBox(p.parts[i]!.box, pl.x, pl.y, pl.rotation));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const apart = Math.max(b.x1 - a.x2, a.x1 - b.x2, b.y1 - a.y2, a.y1 - b.y2);
        expect(apart, `${p.parts[i]!.ref}/${p.parts[j]!.ref}`).toBeGreaterThanOrEqual(0.5 - 1e-6);
      }
    const j = r.placements.findIndex((pl) => pl.ref === 'J1');
    const jb = boxes[j]!;
    const gaps = [jb.y1, 40 - jb.x2, 30 - jb.y2, jb.x1]; // top, right, bottom, left
    const edge = gaps.findIndex((g) => Math.abs(g) < 1e-6);
    expect(edge).toBeGreaterThanOrEqual(0);
    // Its pins (at the footprint's top) lie on the inner side: the side on the edge is the one away from them.
    const pl = r.placements[j]!;
    const pinY = pl.rotation === 0 ? -2 : pl.rotation === 180 ? 2 : 0;
    const pinX = pl.rotation === 90 ? -2 : pl.rotation === 270 ? 2 : 0;
    const out = [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ][edge]!;
    expect(pinX * out[0]! + pinY * out[1]!).toBeLessThan(0);
    expect(r.terms.heat).toBe(0);
  });

  it('refuses an outline smaller than the parts', () => {
    expect(() => place(problem(12, 10))).toThrow(PlacementError);
    expect(() => place(problem(12, 10))).toThrow(/too small for the parts/);
  });
});
