import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ApprovalsInternal } from '../../../actors/approvals/index.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { RunFlowActions } from '../../../contracts/actions/design-flows.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import {
  designLoop,
  fileRequest,
  holdCall,
  pendingGate,
  recordNode,
  startApprovalsNode,
  startRun,
  writeDefinition,
} from '../../support/approvals.ts';
import { useNode } from '../../support/tools.ts';

const t = useNode((env) => startApprovalsNode({ env: env }));

type Json = Record<string, any>;
const DASH = { 'x-service-surface': 'dashboard' };
const list = async (query: string) => {
  const r = await t.http('GET', `/v1/approvals${query}`);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json as { items: Json[]; unscoped_count: number };
};
const node = (id: string) => call(t.node.broker, TwinActions.getNode, { node_id: id });

describe('the approvals queue', () => {
  it('lists every kind normalized, filters by status, project and kind, and counts what it left out for having no project', async () => {
    const p = `p-${crypto.randomUUID().slice(0, 8)}`;
    const run = await startRun(t, p);
    await pendingGate(t, run.id, 'intent');
    const held = await holdCall(t, p);
    const request = await fileRequest(t, p);
    const change = await recordNode(t, p, 'design_change', 'Thicker web', {
      status: 'pending',
      target: 'CAD-BRACKET@1',
      rationale: 'stress margin',
      changes: { web_mm: 4 },
    });
    const loop = await designLoop(t, p);
    const sketch = await writeDefinition(t, p, 'sketch', 'Web profile');
    const drawing = await writeDefinition(t, p, 'technical_drawing', 'Bracket drawing');
    await fileRequest(t, null);
    await recordNode(t, null, 'design_change', 'Unscoped change', { status: 'pending' });

    const mine = await list(`?project_id=${p}`);
    expect(mine.unscoped_count).toBeGreaterThanOrEqual(2);
    const byId = new Map(mine.items.map((i) => [i.id, i]));
    expect([...byId.keys()].sort()).toEqual(
      [
        `gate:${run.id}`,
        held.id,
        request,
        `change:${change}`,
        `design_loop:${loop.loop}`,
        `sketch:${sketch}`,
        `drawing:${drawing}`,
      ].sort(),
    );
    for (const i of mine.items) {
      expect(i).toMatchObject({
        status: 'pending',
        project_id: p,
        decidable: true,
        not_decidable_reason: null,
        decision: null,
      });
      for (const f of [
        'title',
        'summary',
        'created_at',
        'route',
        'findings',
        'allowed_decisions',
        'rework_targets',
        'reason_required_for',
        'detail',
      ])
        expect(i, `${i.id} ${f}`).toHaveProperty(f);
    }
    expect(byId.get(`gate:${run.id}`)).toMatchObject({
      kind: 'gate',
      route: 'dashboard',
      allowed_decisions: ['approve', 'reject', 'retry'],
      reason_required_for: ['reject', 'retry'],
      rework_targets: [],
      reason_held: 'Gate "Intent sign-off" of phase intent is ready for a decision',
      detail: {
        run_id: run.id,
        phase: 'intent',
        gate_name: 'Intent sign-off',
        attempt: 1,
        ready: true,
        retries_left: 3,
        reworks_left: 3,
      },
    });
    expect(byId.get(held.id)).toMatchObject({
      kind: 'tool_call',
      allowed_decisions: ['approve', 'reject'],
      reason_required_for: [],
      deadline: expect.any(String),
      detail: {
        tool_id: 'twin.record_decision',
        source: 'mcp',
        caller: expect.objectContaining({ client: 'approvals-test' }),
      },
    });
    expect(byId.get(held.id)!.requested_by).toContain('approvals-test');
    expect(byId.get(request)).toMatchObject({ kind: 'human_authority', reason_required_for: ['reject'] });
    expect(byId.get(`change:${change}`)).toMatchObject({
      kind: 'design_change',
      summary: 'stress margin',
      allowed_decisions: ['approve', 'reject'],
      detail: { target: 'CAD-BRACKET@1', changes: { web_mm: 4 } },
    });
    expect(byId.get(`design_loop:${loop.loop}`)).toMatchObject({
      kind: 'design_loop',
      allowed_decisions: ['approve'],
      detail: { winning_iteration: { id: loop.winner } },
    });
    expect(byId.get(`sketch:${sketch}`)).toMatchObject({
      kind: 'sketch',
      allowed_decisions: ['approve'],
      detail: { item_ref: expect.stringMatching(/^SK-.*@1$/) },
    });
    expect(byId.get(`drawing:${drawing}`)).toMatchObject({ kind: 'drawing', allowed_decisions: ['approve'] });

    expect((await list(`?project_id=${p}&kind=sketch`)).items.map((i) => i.id)).toEqual([`sketch:${sketch}`]);
    expect((await list(`?project_id=${p}&kind=gate`)).items.map((i) => i.id)).toEqual([`gate:${run.id}`]);
    expect((await list(`?project_id=${p}&kind=human_authority`)).items.map((i) => i.id)).toEqual([request]);
    expect((await list(`?project_id=${p}&status=decided`)).items).toEqual([]);
    expect((await list('')).items.length).toBeGreaterThan(mine.items.length);
    expect((await list('')).unscoped_count).toBe(0);
    expect((await t.http('GET', '/v1/approvals?status=open')).status).toBe(422);
    expect((await t.http('GET', '/v1/approvals?kind=robot')).status).toBe(422);

    await t.http('POST', `/v1/approvals/${request}/decision`, { decision: 'reject', reason: 'not yet' }, DASH);
    expect((await list(`?project_id=${p}&status=decided`)).items.map((i) => i.id)).toEqual([request]);
    expect((await list(`?project_id=${p}&status=all`)).items).toHaveLength(7);
    expect((await list(`?project_id=${p}`)).items).toHaveLength(6);
  });

  it('persists each decision where the spec says: run log, ledger record, change metadata, work-product metadata, the winning iteration', async () => {
    const p = `p-${crypto.randomUUID().slice(0, 8)}`;
    const agent = {
      'x-service-surface': 'agent',
      'x-service-on-behalf-of': 'ann@example.com',
      'x-service-agent': 'copilot',
    };
    const change = await recordNode(t, p, 'design_change', 'Add gusset', { status: 'pending' });
    const sketch = await writeDefinition(t, p, 'sketch', 'Gusset');
    const loop = await designLoop(t, p, 'Gusset loop');
    const run = await startRun(t, p);
    await pendingGate(t, run.id, 'intent');
    const held = await holdCall(t, p);

    expect(
      (
        await t.http(
          'POST',
          `/v1/approvals/change:${change}/decision`,
          { decision: 'approve', reason: 'fine', reviewer: 'mallory' },
          agent,
        )
      ).status,
    ).toBe(200);
    expect((await node(change)).properties).toMatchObject({
      status: 'approved',
      reviewer: 'ann@example.com',
      reviewer_verified: false,
      decision_surface: 'agent',
      decision_on_behalf_of: 'ann@example.com',
      decision_agent: 'copilot',
      decision_reason: 'fine',
    });
    expect(
      (
        await t.http(
          'POST',
          `/v1/approvals/sketch:${sketch}/decision`,
          { decision: 'approve', approved_by: 'mallory' },
          { 'x-service-surface': 'cli' },
        )
      ).status,
    ).toBe(200);
    const sk = await node(sketch);
    expect(sk).toMatchObject({ approved_by: 'local:dashboard' });
    expect(sk.properties).toMatchObject({
      approved: true,
      approved_by: 'local:dashboard',
      approver_verified: false,
      approval_surface: 'cli',
      approval_on_behalf_of: null,
      approval_agent: null,
    });
    expect((await t.http('POST', `/v1/design-loop/${loop.loop}/approve`, { approvedBy: 'mallory' })).status).toBe(200);
    expect((await node(loop.winner)).properties).toMatchObject({
      approved: true,
      approved_by: 'local:dashboard',
      approver_verified: false,
      approval_surface: 'unknown',
      design_loop_id: loop.loop,
    });
    expect((await node(loop.loop)).properties).toMatchObject({ status: 'approved', approved_by: 'local:dashboard' });
    expect(
      (
        await t.http(
          'POST',
          `/v1/approvals/gate:${run.id}/decision`,
          { decision: 'approve', reason: 'intent is right' },
          DASH,
        )
      ).status,
    ).toBe(200);
    expect((await t.http('GET', `/v1/runs/${run.id}`)).json.decisions).toEqual([
      expect.objectContaining({
        phase: 'intent',
        decision: 'approve',
        reason: 'intent is right',
        approver: 'local:dashboard',
        approver_verified: false,
        surface: 'dashboard',
      }),
    ]);
    expect((await t.http('POST', `/v1/chat/tool_approvals/${held.id}`, { approved: true })).status).toBe(200);
    expect(await held.outcome).toMatchObject({ outcome: 'approved' });
    expect((await t.http('GET', `/v1/approvals/${held.id}`)).json.decision).toMatchObject({
      decision: 'approve',
      approver: 'local:dashboard',
      surface: 'unknown',
    });
  });

  it('writes a flow patch or flow version decision back to the flow: approved patches apply, rejected versions never start', async () => {
    const p = `p-${crypto.randomUUID().slice(0, 8)}`;
    const run = await startRun(t, p);
    await pendingGate(t, run.id, 'intent');
    const review = {
      id: 'review',
      title: 'Design review',
      objective: 'Review the concept.',
      required_deliverables: ['design_decision'],
      gate: { name: 'Customer review', gate_id: 'GR' },
    };
    expect(
      (
        await t.http('POST', `/v1/runs/${run.id}/patches`, {
          operations: [{ op: 'add_phase', phase: review, after: 'feasibility' }],
          reason: 'customer review',
        })
      ).status,
    ).toBe(201);
    const patch = (await list(`?project_id=${p}&kind=flow_patch`)).items[0];
    expect(patch).toMatchObject({
      kind: 'flow_patch',
      id: expect.stringMatching(/^tool:/),
      detail: { run_id: run.id, version: 1 },
    });
    expect((await t.http('POST', `/v1/runs/${run.id}/patches/1/apply`)).status).toBe(409);
    expect((await t.http('POST', `/v1/approvals/${patch.id}/decision`, { decision: 'approve' }, DASH)).status).toBe(
      200,
    );
    expect((await t.http('POST', `/v1/runs/${run.id}/patches/1/apply`)).status).toBe(200);

    // The flow row follows the ledger record through the queue's outbox (its row is written before the ledger
    // decision): a ledger record decided without the queue is not written into the flow, a repeat pass moves nothing.
    expect(
      (
        await t.http('POST', `/v1/runs/${run.id}/patches`, {
          operations: [{ op: 'modify_phase', phase_id: 'simulation', changes: { title: 'V&V' } }],
          reason: 'rename',
        })
      ).status,
    ).toBe(201);
    const second = (await list(`?project_id=${p}&kind=flow_patch`)).items.find((i) => i.detail.version === 2)!;
    await call(t.node.broker, HoldsActions.decide, {
      id: second.id,
      decision: 'approve',
      decider: {
        approver: 'local:dashboard',
        approver_verified: false,
        surface: 'dashboard',
        on_behalf_of: null,
        agent: null,
      },
    });
    expect(await call(t.node.broker, ApprovalsInternal.deliver, {})).toMatchObject({ flows_settled: 0, waiting: 0 });
    expect((await t.http('POST', `/v1/runs/${run.id}/patches/2/apply`)).status).toBe(409);

    const proposed = await call(t.node.broker, RunFlowActions.proposeFlow, {
      base_flow: 'mech_v1',
      reason: `no simulation ${p}`,
      operations: [{ op: 'remove_phase', phase_id: 'simulation' }],
    });
    const version = (await list('?kind=flow_version')).items.find((i) => i.detail.version_id === proposed.version_id)!;
    expect(version).toMatchObject({ kind: 'flow_version', project_id: null, reason_required_for: ['reject'] });
    expect(
      (
        await t.http(
          'POST',
          `/v1/approvals/${version.id}/decision`,
          { decision: 'reject', reason: 'we always simulate' },
          DASH,
        )
      ).status,
    ).toBe(200);
    await expect(
      call(t.node.broker, RunFlowActions.startVersion, { version_id: proposed.version_id, goal: 'x' }),
    ).rejects.toMatchObject({ type: 'CONFLICT', message: expect.stringContaining('rejected') });
  });
});
