import { describe, expect, it } from 'vitest';
import { displayJson, displayNumber } from '../../../dashboard/src/ui/display.ts';

// Issue 28 point 5: values are rounded for display and stored exactly. A diff showed `mass_kg 0.054000000000000006`
// (0.1 * 0.54 in binary floating point); the page shows 0.054, the API keeps the stored number.
describe('dashboard display of numbers', () => {
  it('drops binary floating-point noise and keeps every digit a person wrote', () => {
    expect(displayNumber(0.1 * 0.54)).toBe('0.054');
    expect(displayNumber(0.018 * 3)).toBe('0.054');
    expect(displayNumber(0.1 + 0.2)).toBe('0.3');
    expect(displayNumber(120)).toBe('120');
    expect(displayNumber(29.28)).toBe('29.28');
    expect(displayNumber(0.745123)).toBe('0.745123');
    expect(displayNumber(-2.0000000000000004)).toBe('-2');
    expect(displayNumber(210000000000)).toBe('210000000000');
    expect(displayNumber(1.2e-9)).toBe('1.2e-9');
    expect(displayNumber(Number.NaN)).toBe('NaN');
  });
  it('shows a JSON value with its numbers rounded the same way, at any depth, text untouched', () => {
    expect(displayJson(0.054000000000000006)).toBe('0.054');
    expect(displayJson({ mass_kg: 0.054000000000000006, name: '0.30000000000000004' })).toBe(
      '{"mass_kg":0.054,"name":"0.30000000000000004"}',
    );
    expect(displayJson([0.1 + 0.2, { a: [0.018 * 3] }, null, true])).toBe('[0.3,{"a":[0.054]},null,true]');
  });
});
