import { describe, expect, it } from 'vitest';
import { parseModelFindings } from '../../../actors/gates/gate-model.ts';
import { findingsKey } from '../../../actors/runs/run.markers.ts';

describe('the gate_check answer', () => {
  it('parses plain, fenced or wrapped JSON into model findings capped at warning', () => {
    const one = { findings: [{ kind: 'analysis', severity: 'error', message: 'No load case is named.' }] };
    const want = [{ kind: 'analysis', severity: 'warning', message: 'No load case is named.', source: 'model' }];
    expect(parseModelFindings(JSON.stringify(one))).toEqual(want);
    expect(parseModelFindings('```json\n' + JSON.stringify(one) + '\n```')).toEqual(want);
    expect(parseModelFindings(`Here you go: ${JSON.stringify(one)} Hope it helps.`)).toEqual(want);
    expect(parseModelFindings('{"findings": [{"message": "Bare."}]}')).toEqual([
      { kind: 'other', severity: 'warning', message: 'Bare.', source: 'model' },
    ]);
    expect(parseModelFindings('{"findings": []}')).toEqual([]);
  });

  it('answers null for anything else', () => {
    for (const text of [
      '',
      'no findings',
      '{"findings": "none"}',
      '{"findings": [{"kind": "vibes", "message": "x"}]}',
      '{',
    ])
      expect(parseModelFindings(text), text).toBeNull();
  });
});

describe('the stall key', () => {
  it('leaves model findings out, so their wording cannot hide a gate that makes no progress', () => {
    const checked = { kind: 'missing_deliverable' as const, severity: 'error', message: 'no cad_model was recorded' };
    const a = findingsKey([checked, { kind: 'other', severity: 'warning', message: 'one wording', source: 'model' }]);
    const b = findingsKey([{ kind: 'other', severity: 'warning', message: 'another', source: 'model' }, checked]);
    expect(a).toBe(b);
    expect(a).toBe(findingsKey([checked]));
  });
});
