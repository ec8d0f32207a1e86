import { describe, expect, it } from 'vitest';
import { diffProperties, jsonEqual } from '../../../actors/twin/prop-diff.ts';

describe('diffProperties', () => {
  it('reports nothing for equal values whatever the key order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(diffProperties({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it('descends objects by key and arrays by index, naming each leaf by a dotted path', () => {
    const from = { material: 'S355', constraints: [{ id: 'C1', limit: 125 }], old: true };
    const to = {
      material: 'S355',
      constraints: [
        { id: 'C1', limit: 100 },
        { id: 'C2', limit: 2 },
      ],
      new: 'x',
    };
    expect(diffProperties(from, to)).toEqual([
      { path: 'constraints.0.limit', change: 'changed', from: 125, to: 100 },
      { path: 'constraints.1', change: 'added', to: { id: 'C2', limit: 2 } },
      { path: 'new', change: 'added', to: 'x' },
      { path: 'old', change: 'removed', from: true },
    ]);
  });

  it('compares values of different kinds whole', () => {
    expect(diffProperties({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', change: 'changed', from: [1], to: { 0: 1 } },
    ]);
    expect(diffProperties({ a: null }, { a: 0 })).toEqual([{ path: 'a', change: 'changed', from: null, to: 0 }]);
  });
});
