import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalItemSchema, ApprovalListResponseSchema } from '../../../contracts/approvals.ts';
import { pendingGate, startApprovalsNode, startRun, type ApprovalsNode } from '../../support/approvals.ts';

/**
 * The evaluator's table on a gate item (decision 0080, amendment) over HTTP: the list and the item answer the same
 * `verdicts` for a pending gate, decided gates carry none, and when the gates actor cannot answer the item is still
 * served (200, never a 500), without `verdicts` and with `detail.verdicts_unavailable` saying why.
 */
let t: ApprovalsNode;
beforeAll(async () => {
  t = await startApprovalsNode();
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('gate items carry the verdict table', () => {
  it('answers the same verdicts in the list and the item, none once decided, and a reason when gates cannot answer', async () => {
    const project = (await t.http('POST', '/v1/projects', { name: 'Gate verdicts' })).json.id as string;
    const run = await startRun(t, project, {
      constraints: [
        { metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' },
        { metric: 'length_mm', limit: 250, unit: 'mm', severity: 'warning' },
      ],
    });
    for (const phase of ['intent', 'needs']) {
      await pendingGate(t, run.id, phase);
      expect((await t.http('POST', `/v1/runs/${run.id}/approval`, { decision: 'approve' })).status).toBe(200);
    }
    const item = ApprovalItemSchema.parse(await pendingGate(t, run.id, 'requirements'));
    // No geometry yet: the error-severity stress blocks first, the warning-severity length follows, both not verified.
    expect(item.verdicts!.map((v) => [v.metric, v.status, v.blocking])).toEqual([
      ['max_von_mises_mpa', 'not_verified', true],
      ['length_mm', 'not_verified', false],
    ]);
    const list = ApprovalListResponseSchema.parse(
      (await t.http('GET', `/v1/approvals?status=pending&kind=gate&project_id=${project}`)).json,
    );
    expect(list.items.find((i) => i.id === item.id)?.verdicts).toEqual(item.verdicts);

    // A decided gate carries no table: its run has moved on (the lifecycle view has the live one). Run 2 has the same
    // requirements and is rejected at the same gate.
    const run2 = await startRun(t, project, {
      constraints: [{ metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' }],
    });
    for (const phase of ['intent', 'needs']) {
      await pendingGate(t, run2.id, phase);
      expect((await t.http('POST', `/v1/runs/${run2.id}/approval`, { decision: 'approve' })).status).toBe(200);
    }
    expect(ApprovalItemSchema.parse(await pendingGate(t, run2.id, 'requirements')).verdicts).toHaveLength(1);
    const rejected = await t.http('POST', `/v1/runs/${run2.id}/approval`, {
      decision: 'reject',
      reason: 'not this one',
    });
    expect(rejected.status, JSON.stringify(rejected.json)).toBe(200);
    const decided = ApprovalItemSchema.parse((await t.http('GET', `/v1/approvals/gate:${run2.id}`)).json);
    expect(decided.status).toBe('rejected');
    expect(decided.verdicts).toBeUndefined();

    // Hostile case: the gates actor is gone; the item is still served, saying why it has no table.
    const gates = t.node.broker.getLocalService('gates');
    expect(gates).toBeDefined();
    await t.node.broker.destroyService(gates!);
    const res = await t.http('GET', `/v1/approvals/${item.id}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const without = ApprovalItemSchema.parse(res.json);
    expect(without.verdicts).toBeUndefined();
    expect(String(without.detail?.verdicts_unavailable)).toMatch(/^the requirements could not be judged now: /);
    const listed = await t.http('GET', `/v1/approvals?status=pending&project_id=${project}`);
    expect(listed.status).toBe(200);
  }, 120_000);
});
