import { describe, expect, it } from 'vitest';
import { gateReason, parseFindings } from '../../../actors/approvals/findings.ts';

describe('gate findings parsed out of a reason', () => {
  it('reads back the findings a gate reason lists, kinds and severities kept', () => {
    const findings = [
      { kind: 'missing_deliverable' as const, severity: 'error', message: 'no cad_model was recorded in phase design' },
      { kind: 'constraint_violation' as const, severity: 'warning', message: 'violated: C1 mass_kg <= 0.25 kg' },
    ];
    const reason = gateReason('Mechanical design review', 'design', false, findings);
    expect(reason.split('\n')[0]).toBe('Gate "Mechanical design review" of phase design is not ready:');
    expect(parseFindings(reason)).toEqual(findings);
    expect(parseFindings(gateReason('Intent sign-off', 'intent', true, []))).toEqual([]);
  });

  it('classifies free text by its wording and keeps an unrecognised finding whole as other', () => {
    expect(parseFindings('ungrounded|the phase claimed a commit without a tool call')).toEqual([
      { kind: 'ungrounded', severity: 'error', message: 'the phase claimed a commit without a tool call' },
    ]);
    expect(
      parseFindings('- max stress exceeds the limit of 125 MPa\nsafety factor 1.1 below target').map((f) => f.kind),
    ).toEqual(['constraint_violation', 'analysis']);
    expect(parseFindings('the STEP file has no solids').map((f) => f.kind)).toEqual(['geometry']);
    const odd = 'the customer has not replied; the supplier quote expired (see thread #42)';
    expect(parseFindings(odd)).toEqual([{ kind: 'other', severity: 'error', message: odd }]);
    expect(parseFindings(null)).toEqual([]);
  });
});
