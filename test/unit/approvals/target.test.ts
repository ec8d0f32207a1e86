import { describe, expect, it } from 'vitest';
import type { SourceItem } from '../../../actors/approvals/approval.machine.ts';
import { etagOf, targetRefusal } from '../../../actors/approvals/target.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { parseIfMatch } from '../../../gateway/approvals/if-match.ts';

function gate(phase: string, attempt: number, extra: Partial<SourceItem> = {}): SourceItem {
  return {
    id: 'gate:run_1',
    kind: 'gate',
    status: 'pending',
    title: 'g',
    summary: '',
    project_id: 'p',
    created_at: 't',
    deadline: null,
    route: 'dashboard',
    requested_by: null,
    reason_held: null,
    findings: [],
    allowed_decisions: ['approve', 'reject'],
    rework_targets: [],
    detail: { phase, attempt },
    decision: null,
    blocked: null,
    source: { type: 'gate', run_id: 'run_1', gate_id: `run_1:${phase}:${attempt}`, gone: false, idems: [] },
    ...extra,
  };
}
const decided = {
  decision: 'approve' as const,
  reason: '',
  approver: 'a',
  approver_verified: false,
  surface: 'cli' as const,
  on_behalf_of: null,
  agent: null,
  decided_at: '2026-01-01T00:00:00Z',
};

describe('gate targets (pure)', () => {
  it('an ETag is quoted and changes with the open gate, its attempt, the decision and a waiting delivery', () => {
    const tags = [
      etagOf(gate('intent', 1)),
      etagOf(gate('needs', 1)),
      etagOf(gate('intent', 2)),
      etagOf(gate('intent', 1, { status: 'approved', decision: decided })),
      etagOf(gate('intent', 1, { blocked: 'waiting' })),
    ];
    for (const t of tags) expect(t).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new Set(tags).size).toBe(tags.length);
    expect(etagOf(gate('intent', 1))).toBe(etagOf(gate('intent', 1)));
  });

  it('refuses 409 a target that is not the open gate, naming the open one; 422 for phase on another kind', () => {
    const open = gate('needs', 1);
    expect(targetRefusal(open, undefined)).toBeNull();
    expect(targetRefusal(open, { phase: 'needs', attempt: 1, etags: [etagOf(open)] })).toBeNull();
    expect(targetRefusal(open, { phase: 'needs' })).toBeNull();
    expect(targetRefusal(open, { etags: ['"x"', etagOf(open)] })).toBeNull();
    expect(targetRefusal(open, { phase: 'intent', attempt: 1 })).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/names gate intent attempt 1, but the open gate is needs attempt 1/),
    });
    expect(targetRefusal(open, { phase: 'needs', attempt: 2 })?.code).toBe('CONFLICT');
    expect(targetRefusal(open, { etags: [etagOf(gate('intent', 1))] })?.code).toBe('CONFLICT');
    expect(
      targetRefusal(gate('intent', 1, { status: 'approved', decision: decided }), { phase: 'intent', attempt: 1 })
        ?.message,
    ).toMatch(/no gate is open now: the last one, intent attempt 1, is approved/);
    expect(
      targetRefusal(
        { ...open, kind: 'sketch', source: { type: 'node', node_id: 'n', kind: 'sketch' } },
        { phase: 'needs' },
      )?.code,
    ).toBe('VALIDATION_FAILED');
  });
});

describe('If-Match parsing', () => {
  it('reads strong and weak tags, lists and *; refuses malformed headers with 422', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('*')).toBeUndefined();
    expect(parseIfMatch('"abc"')).toEqual(['"abc"']);
    expect(parseIfMatch('W/"abc"')).toEqual(['"abc"']);
    expect(parseIfMatch('"a", W/"b" ,"c"')).toEqual(['"a"', '"b"', '"c"']);
    for (const bad of ['abc', '"a" "b"', 'W/', '"unterminated', '', '*, "a"', '"a\u0000"']) {
      expect(() => parseIfMatch(bad), JSON.stringify(bad)).toThrow(ActorError);
    }
  });
});
