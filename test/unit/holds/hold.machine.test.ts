import { describe, expect, it } from 'vitest';
import { answerToCommand } from '../../../actors/holds/hold.elicitation.ts';
import {
  decide,
  holdWindow,
  newHeldCall,
  progressDue,
  type HoldEnv,
  type HoldState,
} from '../../../actors/holds/hold.machine.ts';
import { outcomeOf } from '../../../actors/holds/hold.outcome.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const env = (seconds = 0, extra: Partial<HoldEnv> = {}): HoldEnv => ({
  now: new Date(T0 + seconds * 1000),
  holdSeconds: 100,
  progressHoldSeconds: 180,
  progressIntervalSeconds: 10,
  ...extra,
});
const LOCAL = { approver: 'local:elicitation', verified: false };
const held = (over: { can_elicit?: boolean; asks?: boolean; has_progress?: boolean } = {}): HoldState =>
  newHeldCall(
    {
      call_id: 'c1',
      tool_id: 'twin.record_decision',
      arguments: { project_id: 'p1', title: 'x' },
      caller: {
        kind: 'remote',
        transport: 'http',
        session_id: 's1',
        client: 'cli',
        can_elicit: over.can_elicit,
        ...(over.asks ? { decision_elicitation: LOCAL } : {}),
      },
      progress_node: 'gw-1',
      reason_held: 'writes',
      has_progress: over.has_progress ?? false,
    },
    'h1',
    'holds-1',
    env(),
  );
const moved = (s: HoldState, seconds: number, cmd: Parameters<typeof decide>[1]) => {
  const out = decide(s, cmd, env(seconds));
  return { out, next: { ...s, ...out.patch } as HoldState };
};
const dashboard = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard' as const,
  on_behalf_of: null,
  agent: null,
};

describe('the hold machine', () => {
  it('picks the window: 100 s, 180 s with a progress token, capped by an explicit gate timeout', () => {
    expect(holdWindow(false, undefined, env())).toBe(100);
    expect(holdWindow(true, undefined, env())).toBe(180);
    expect(holdWindow(true, 60, env())).toBe(60);
    expect(holdWindow(false, 60, env())).toBe(100);
  });

  it('routes the question to the client only when the gateway asks that session for decisions', () => {
    expect(held({ can_elicit: true, asks: true }).route).toBe('elicitation');
    // Declaring elicitation is not enough: no client approves its own call (ISSUE 27 #2).
    expect(held({ can_elicit: true }).route).toBe('dashboard');
    expect(held().route).toBe('dashboard');
    expect(held()).toMatchObject({
      project_id: 'p1',
      deadline: new Date(T0 + 100_000).toISOString(),
      next_progress_at: null,
    });
  });

  it('refuses a queue decision on an elicitation-routed hold, and any move once the hold ended', () => {
    expect(
      decide(
        held({ can_elicit: true, asks: true }),
        { type: 'decide', decision: 'approve', reason: '', decider: dashboard },
        env(),
      ).refusal?.code,
    ).toBe('CONFLICT');
    const { next } = moved(held(), 5, { type: 'decide', decision: 'reject', reason: 'no', decider: dashboard });
    expect(next.status).toBe('rejected');
    for (const cmd of [
      { type: 'expire' },
      { type: 'cancel', reason: 'x' },
      { type: 'decide', decision: 'approve', reason: '', decider: dashboard },
    ] as const) {
      expect(decide(next, cmd, env(500)).refusal?.message).toContain('already decided (rejected)');
    }
  });

  it('expires only once the deadline passed, and maps each ending to its outcome', () => {
    expect(decide(held(), { type: 'expire' }, env(99)).refusal).toBeDefined();
    const expired = moved(held(), 100, { type: 'expire' }).next;
    expect(outcomeOf(expired, env(100))).toMatchObject({
      outcome: 'timed_out',
      held_seconds: 100,
      window_seconds: 100,
      route: 'dashboard',
    });
    expect(outcomeOf(moved(held(), 3, { type: 'cancel', reason: 'bye' }).next, env(3))).toMatchObject({
      outcome: 'cancelled',
    });
    expect(outcomeOf(moved(held(), 3, { type: 'orphan', node: 'n' }).next, env(3)).outcome).toBe('cancelled');
    expect(
      outcomeOf(moved(held(), 3, { type: 'decide', decision: 'approve', reason: '', decider: dashboard }).next, env(3)),
    ).toMatchObject({ outcome: 'approved', approval_id: 'tool:h1' });
  });

  it("reads the client's answer: accept decides, decline rejects, cancel closes, anything else rejects", () => {
    expect(answerToCommand({ action: 'accept', content: { decision: 'approve' } }, LOCAL)).toMatchObject({
      type: 'decide',
      decision: 'approve',
      decider: { approver: 'local:elicitation', surface: 'mcp', approver_verified: false },
    });
    expect(answerToCommand({ action: 'accept', content: { decision: 'reject', reason: 'r' } }, LOCAL)).toMatchObject({
      decision: 'reject',
      reason: 'r',
    });
    expect(answerToCommand({ action: 'decline' }, LOCAL)).toMatchObject({ type: 'decide', decision: 'reject' });
    expect(answerToCommand({ action: 'cancel' }, LOCAL)).toMatchObject({ type: 'cancel' });
    expect(answerToCommand({ action: 'accept', content: { decision: 'yes please' } }, LOCAL)).toMatchObject({
      decision: 'reject',
    });
    expect(answerToCommand(undefined, LOCAL)).toMatchObject({ decision: 'reject' });
  });

  it('makes progress due from the start of the hold, then every interval, in seconds of the window', () => {
    const s = held({ has_progress: true });
    expect(progressDue(s, env(0))).toEqual({
      fraction: 0,
      total: 180,
      next_progress_at: new Date(T0 + 10_000).toISOString(),
    });
    const later = { ...s, next_progress_at: new Date(T0 + 10_000).toISOString() };
    expect(progressDue(later, env(9))).toBeUndefined();
    expect(progressDue(later, env(45))).toMatchObject({
      fraction: 45 / 180,
      next_progress_at: new Date(T0 + 55_000).toISOString(),
    });
    expect(progressDue(held(), env(0))).toBeUndefined();
  });
});
