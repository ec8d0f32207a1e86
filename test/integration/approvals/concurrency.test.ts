import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import {
  fileRequest,
  holdCall,
  pendingGate,
  recordNode,
  startApprovalsNode,
  startRun,
  writeDefinition,
} from '../../support/approvals.ts';
import { useNode } from '../../support/tools.ts';

const t = useNode((env) => startApprovalsNode({ env: { ...env, SERVICE_DESIGN_FLOW_STALL_STOP: '2' } }));

const N = 100;
type Send = (i: number) => Promise<{ status: number; json: Record<string, any> }>;

/** Fires N decisions at once; answers how many answered each status. */
async function race(send: Send): Promise<Record<number, number>> {
  const out = await Promise.all(Array.from({ length: N }, (_, i) => send(i)));
  const counts: Record<number, number> = {};
  for (const r of out) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
const unified = (id: string, body: Record<string, unknown>) =>
  t.http('POST', `/v1/approvals/${id}/decision`, body, { 'x-service-surface': 'dashboard' });

describe(`${N} concurrent decisions on one item`, () => {
  it('on a gate: exactly one wins (unified and older route mixed), the run logs one decision', async () => {
    const run = await startRun(t, 'p-race');
    await pendingGate(t, run.id, 'intent');
    const counts = await race((i) =>
      i % 2
        ? unified(`gate:${run.id}`, { decision: 'reject', reason: `no ${i}` })
        : t.http('POST', `/v1/runs/${run.id}/approval`, { decision: 'reject', reason: `no ${i}` }),
    );
    expect(counts).toEqual({ 200: 1, 409: N - 1 });
    expect((await t.http('GET', `/v1/runs/${run.id}`)).json.decisions).toHaveLength(1);
  });

  it('on a held tool call, a human-authority request, a design change and a sketch: exactly one wins each', async () => {
    const request = await fileRequest(t, 'p-race');
    expect(await race((i) => unified(request, { decision: i % 2 ? 'approve' : 'reject', reason: `r${i}` }))).toEqual({
      200: 1,
      409: N - 1,
    });
    expect((await call(t.node.broker, HoldsActions.get, { id: request })).status).toMatch(/^(approved|rejected)$/);

    const held = await holdCall(t, 'p-race');
    expect(
      await race((i) =>
        i % 2
          ? unified(held.id, { decision: 'approve' })
          : t.http('POST', `/v1/chat/tool_approvals/${held.id}`, { approved: i % 4 === 0 }),
      ),
    ).toEqual({ 200: 1, 409: N - 1 });
    expect(await held.outcome).toMatchObject({ outcome: expect.stringMatching(/^(approved|rejected)$/) });

    const change = await recordNode(t, 'p-race', 'design_change', 'Raced change', { status: 'pending' });
    expect(
      await race((i) =>
        i % 2
          ? unified(`change:${change}`, { decision: 'approve' })
          : t.http('POST', `/v1/assistant/proposals/${change}/decide`, {
              change_id: change,
              decision: 'reject',
              reason: `r${i}`,
              reviewer: 'x',
            }),
      ),
    ).toEqual({ 200: 1, 409: N - 1 });

    const sketch = await writeDefinition(t, 'p-race', 'sketch', 'Raced sketch');
    const before = (await call(t.node.broker, TwinActions.getNode, { node_id: sketch })).properties;
    expect(
      await race((i) =>
        i % 2
          ? unified(`sketch:${sketch}`, { decision: 'approve', reason: `r${i}` })
          : t.http('POST', `/v1/twin/nodes/${sketch}/approve-sketch`, { approved_by: null }),
      ),
    ).toEqual({ 200: 1, 409: N - 1 });
    const after = (await call(t.node.broker, TwinActions.getNode, { node_id: sketch })).properties;
    expect(after).toMatchObject({ ...before, approved: true, approved_by: 'local:dashboard' });
  });

  it('on a gate whose workflow no longer exists: one saved reject', async () => {
    const run = await startRun(t, 'p-race', { silent: ['intent'] });
    await pendingGate(t, run.id, 'intent', 1);
    expect((await unified(`gate:${run.id}`, { decision: 'retry', reason: 'once more' })).status).toBe(200);
    await expect
      .poll(async () => (await t.http('GET', `/v1/approvals/gate:${run.id}`)).json.detail?.workflow, {
        timeout: 20_000,
      })
      .toBe('gone');
    expect(await race((i) => unified(`gate:${run.id}`, { decision: 'reject', reason: `gone ${i}` }))).toEqual({
      200: 1,
      409: N - 1,
    });
  });
});
