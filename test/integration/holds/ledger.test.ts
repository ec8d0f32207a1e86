import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { TOOLCALL_CANCEL_EVENT } from '../../../contracts/actions/adapters.actions.ts';
import { DASHBOARD, startHoldsNode } from '../../support/holds.ts';
import { useNode } from '../../support/tools.ts';

const t = useNode((env) => startHoldsNode({ roles: 'holds', env: env }));

const remote = { kind: 'remote' as const, transport: 'http' as const, session_id: 's-1', client: 'ledger-test' };
/** A held call as the registry asks for it (no gateway here: the question goes to the dashboard queue). */
const hold = (extra: Record<string, unknown> = {}) => {
  const call_id = `call_${crypto.randomUUID()}`;
  const outcome = call(t.node.broker, HoldsActions.request, {
    call_id,
    tool_id: 'twin.record_decision',
    arguments: { title: 'x' },
    caller: remote,
    reason_held: 'writes',
    ...extra,
  });
  return { call_id, outcome };
};
const recordOf = async (callId: string) => {
  await expect.poll(async () => (await t.pending()).some((r) => r.call_id === callId)).toBe(true);
  return (await t.pending()).find((r) => r.call_id === callId)!;
};
const decideAs = (id: string, decision: 'approve' | 'reject', reason = '') =>
  call(t.node.broker, HoldsActions.decide, { id, decision, reason, decider: DASHBOARD });

describe('held calls in the tool-approval ledger', () => {
  it('records a held call tagged with its caller, pending on the dashboard route, and runs it once a person approves', async () => {
    const h = hold();
    const r = await recordOf(h.call_id);
    expect(r).toMatchObject({
      kind: 'tool_call',
      status: 'awaiting_approval',
      tool_id: 'twin.record_decision',
      source: 'mcp',
      route: 'dashboard',
      session_id: 's-1',
      window_seconds: 100,
    });
    expect(r.requested_by).toContain('ledger-test');
    expect(Date.parse(r.deadline!) - Date.parse(r.created_at)).toBe(100_000);
    const decided = await decideAs(`tool:${r.id}`, 'approve', 'looks fine');
    expect(decided.decision).toMatchObject({
      decision: 'approve',
      approver: 'local:dashboard',
      approver_verified: false,
      surface: 'dashboard',
      reason: 'looks fine',
    });
    expect(await h.outcome).toMatchObject({ outcome: 'approved', approval_id: `tool:${r.id}` });
    await expect(decideAs(r.id, 'reject')).rejects.toMatchObject({
      type: 'CONFLICT',
      message: expect.stringContaining('already decided'),
    });
  });

  it('ends a rejected call with the approval_required data and never as approved', async () => {
    const h = hold();
    const r = await recordOf(h.call_id);
    await decideAs(r.id, 'reject', 'wrong bracket');
    const o = await h.outcome;
    expect(o).toMatchObject({
      outcome: 'rejected',
      approval_id: `tool:${r.id}`,
      route: 'dashboard',
      window_seconds: 100,
      held_seconds: 0,
    });
    expect(o.outcome !== 'approved' && o.message).toContain('wrong bracket');
  });

  it('expires a hold when its window passes on the injected clock, and not a second before', async () => {
    const h = hold();
    const r = await recordOf(h.call_id);
    await t.advance(99);
    expect((await call(t.node.broker, HoldsActions.get, { id: r.id })).status).toBe('awaiting_approval');
    await t.advance(1);
    expect(await h.outcome).toMatchObject({ outcome: 'timed_out', held_seconds: 100, window_seconds: 100 });
    expect(await call(t.node.broker, HoldsActions.get, { id: r.id })).toMatchObject({
      status: 'expired',
      error: 'nobody answered within the 100 s hold window',
    });
    await expect(decideAs(r.id, 'approve')).rejects.toMatchObject({ type: 'CONFLICT' });
  });

  it('gives a call with a progress token the longer window, capped by an explicit gate timeout', async () => {
    const a = hold({ has_progress: true });
    const b = hold({ has_progress: true, timeout_seconds: 30 });
    expect((await recordOf(a.call_id)).window_seconds).toBe(180);
    expect((await recordOf(b.call_id)).window_seconds).toBe(30);
    await t.advance(30);
    expect(await b.outcome).toMatchObject({ outcome: 'timed_out', window_seconds: 30 });
    await t.advance(150);
    expect(await a.outcome).toMatchObject({ outcome: 'timed_out', window_seconds: 180 });
  });

  it('cancels the hold when the client cancels its call', async () => {
    const h = hold();
    const r = await recordOf(h.call_id);
    await t.node.broker.broadcast(TOOLCALL_CANCEL_EVENT, { call_id: h.call_id, reason: 'user pressed stop' });
    expect(await h.outcome).toMatchObject({ outcome: 'cancelled', approval_id: `tool:${r.id}` });
    expect(await call(t.node.broker, HoldsActions.get, { id: r.id })).toMatchObject({
      status: 'canceled',
      error: 'the client cancelled the call: user pressed stop',
    });
  });

  it('lets exactly one of 100 concurrent decisions on one record win', async () => {
    const h = hold();
    const r = await recordOf(h.call_id);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => decideAs(r.id, i % 2 ? 'approve' : 'reject', `decider ${i}`)),
    );
    const won = results.filter((x) => x.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const x of results) if (x.status === 'rejected') expect(x.reason).toMatchObject({ type: 'CONFLICT' });
    const winner = (won[0] as PromiseFulfilledResult<{ decision: { reason: string } | null; status: string }>).value;
    expect(await call(t.node.broker, HoldsActions.get, { id: r.id })).toMatchObject({
      status: winner.status,
      decision: { reason: winner.decision!.reason },
    });
    expect((await h.outcome).outcome).toBe(winner.status === 'approved' ? 'approved' : 'rejected');
  });

  it('files a request with no waiting call and lists it by status and project', async () => {
    const filed = await call(t.node.broker, HoldsActions.file, {
      kind: 'human_authority',
      tool_id: 'twin.approve_design_loop',
      title: 'design loop L-1',
      project_id: 'p-filed',
      arguments: { design_loop_id: 'L-1' },
    });
    expect(filed).toMatchObject({
      kind: 'human_authority',
      status: 'awaiting_approval',
      route: 'dashboard',
      call_id: null,
      deadline: null,
      project_id: 'p-filed',
    });
    const pending = await call(t.node.broker, HoldsActions.list, { status: 'pending', project_id: 'p-filed' });
    expect(pending.records.map((r) => r.id)).toEqual([filed.id]);
    await decideAs(filed.id, 'approve');
    expect(
      (await call(t.node.broker, HoldsActions.list, { status: 'pending', project_id: 'p-filed' })).records,
    ).toEqual([]);
    expect(
      (await call(t.node.broker, HoldsActions.list, { status: 'decided', project_id: 'p-filed' })).records.map(
        (r) => r.id,
      ),
    ).toEqual([filed.id]);
    await expect(call(t.node.broker, HoldsActions.get, { id: 'tool:nope' })).rejects.toMatchObject({
      type: 'NOT_FOUND',
    });
  });
});
