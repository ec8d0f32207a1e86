import { describe, expect, it } from 'vitest';
import { parseReviseKeys } from '../../../dashboard/src/pages/run-revise-keys.ts';

// Issue 28 point 1 (decision 0100): the new-run page's "Revise items of earlier runs" field becomes the start
// request's `revise`. The page only splits what was typed; the server judges each key (422 naming an unknown one).
describe('the new-run page reading the keys to revise', () => {
  it('takes keys comma-separated or one per line, trimmed, each once, in the order typed', () => {
    expect(parseReviseKeys(' CAD-BRACKET-7K2Q,\nINT-X-1\r\n\n  CAD-BRACKET-7K2Q ; SIM-A-2 ')).toEqual([
      'CAD-BRACKET-7K2Q',
      'INT-X-1',
      'SIM-A-2',
    ]);
  });
  it('sends nothing for an empty or blank field', () => {
    expect(parseReviseKeys('')).toEqual([]);
    expect(parseReviseKeys(' ,\n ; ')).toEqual([]);
  });
  it('passes a hostile entry through unchanged for the server to refuse (no silent correction)', () => {
    expect(parseReviseKeys('cad-bracket-7k2q, CAD-BRACKET-7K2Q@1')).toEqual(['cad-bracket-7k2q', 'CAD-BRACKET-7K2Q@1']);
  });
});
