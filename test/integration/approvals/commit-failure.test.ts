import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalsInternal } from '../../../actors/approvals/index.ts';
import { createApprovalsService } from '../../../actors/approvals/approvals.service.ts';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { createGatesService } from '../../../actors/gates/gates.service.ts';
import { createRunsService } from '../../../actors/runs/runs.service.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createGatewayService, type GatewayRuntime } from '../../../gateway/gateway.service.ts';
import { startActors } from '../../support/actors.ts';
import { recordingExecutor } from '../../support/flow-node.ts';
import { realDbEnv } from '../../support/tools.ts';

let h: BrokerHandle;
let url = '';
let drop: () => Promise<void>;
/** The twin's commit fails at this step while set (the adapter boundary: a database fault part-way through). */
let faultAt: 'after_heads' | 'after_baseline' | undefined;
/** The run host fails once after the twin committed, before the decision event is stored (a database fault there). */
let failAfterCommit = false;
beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  const runtime: GatewayRuntime = { transport: 'http' };
  h = await startActors(
    [
      (infra) => createGatewayService(infra, runtime),
      (infra) =>
        createRunsService(infra, {
          executor: recordingExecutor(),
          faults: () => {
            if (!failAfterCommit) return;
            failAfterCommit = false;
            throw new Error('injected fault after the commit');
          },
        }),
      createGatesService,
      (infra) =>
        createTwinService(infra, {
          faults: (step) => {
            if (step === faultAt) throw new Error(`injected fault at ${step}`);
          },
        }),
      createToolsService,
      createTwinAdapter,
      createApprovalsService,
    ],
    { SERVICE_PORT: '0', ...db.env },
  );
  await runtime.serve!();
  url = `http://127.0.0.1:${runtime.address!.port}`;
});
afterAll(async () => {
  await h.stop();
  await drop();
});

type Json = Record<string, any>;
async function http(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}
const gate = (id: string) =>
  expect.poll(async () => (await http('GET', `/v1/approvals/gate:${id}`)).json.status ?? null, {
    timeout: 15_000,
    interval: 50,
  });

describe('a gate approval whose drafts fail to commit part-way', () => {
  it('answers 503 with nothing decided (heads restored), on the unified and the older route; approving again commits', async () => {
    const routes = [
      (id: string) => http('POST', `/v1/approvals/gate:${id}/decision`, { decision: 'approve' }),
      (id: string) => http('POST', `/v1/runs/${id}/approval`, { decision: 'approve' }),
    ];
    for (const send of routes) {
      const run = (await http('POST', '/v1/runs', { design_flow: 'mech_v1', project_id: 'p-fault', goal: 'a bracket' }))
        .json;
      await gate(run.id).toBe('pending');
      faultAt = 'after_baseline';
      const failed = await send(run.id);
      faultAt = undefined;
      expect(failed.status).toBe(503);
      expect(failed.json.error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining('committing the drafts'),
      });
      const item = (await http('GET', `/v1/approvals/gate:${run.id}`)).json;
      expect(item).toMatchObject({ status: 'pending', decision: null, decidable: true, detail: { phase: 'intent' } });
      expect((await http('GET', `/v1/runs/${run.id}`)).json.decisions).toEqual([]);
      const changes = (await http('GET', `/v1/twin/runs/${run.id}/changes`)).json;
      expect(changes.revisions.length).toBeGreaterThan(0);
      expect(changes.revisions.map((r: Json) => r.status)).toEqual(changes.revisions.map(() => 'draft'));
      expect((await send(run.id)).status).toBe(200);
      expect((await http('GET', `/v1/runs/${run.id}`)).json.decisions).toEqual([
        expect.objectContaining({ phase: 'intent', decision: 'approve' }),
      ]);
    }
  });

  it('records an approve whose drafts committed but whose decision was not stored (503), refuses other decisions, and delivers it with its key', async () => {
    const run = (await http('POST', '/v1/runs', { design_flow: 'mech_v1', project_id: 'p-stored', goal: 'a bracket' }))
      .json;
    await gate(run.id).toBe('pending');
    failAfterCommit = true;
    const failed = await http('POST', `/v1/approvals/gate:${run.id}/decision`, {
      decision: 'approve',
      reason: 'ship it',
    });
    expect(failed.status).toBe(503);
    expect(failed.json.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('committed its drafts but could not store the decision'),
      details: { recorded: true },
    });
    const changes = (await http('GET', `/v1/twin/runs/${run.id}/changes`)).json;
    expect(changes.revisions.length).toBeGreaterThan(0);
    expect(changes.revisions.map((r: Json) => r.status)).toEqual(changes.revisions.map(() => 'approved'));
    expect((await http('GET', `/v1/runs/${run.id}`)).json.decisions).toEqual([]);
    // The gate is still open in the run, but the queue holds the approve: a reject now would undo nothing it committed.
    expect((await http('GET', `/v1/approvals/gate:${run.id}`)).json).toMatchObject({
      status: 'pending',
      decidable: false,
      decision: { decision: 'approve', reason: 'ship it' },
    });
    expect(
      (await http('POST', `/v1/approvals/gate:${run.id}/decision`, { decision: 'reject', reason: 'changed my mind' }))
        .status,
    ).toBe(409);
    expect(
      (await http('POST', `/v1/runs/${run.id}/approval`, { decision: 'reject', reason: 'changed my mind' })).status,
    ).toBe(409);
    await call(h.broker, ApprovalsInternal.deliver, {});
    await expect
      .poll(async () => (await http('GET', `/v1/runs/${run.id}`)).json.decisions, { timeout: 15_000, interval: 100 })
      .toEqual([
        expect.objectContaining({
          phase: 'intent',
          decision: 'approve',
          reason: 'ship it',
          approver: 'local:dashboard',
        }),
      ]);
    // The run's item is its current gate: approved at intent, or, once the run has reached its next gate (how soon
    // depends on the machine), pending there with the intent approve first in its gate history.
    const item = (await http('GET', `/v1/approvals/gate:${run.id}`)).json;
    if (item.status === 'pending') {
      expect(item.detail.phase).not.toBe('intent');
      expect(item.detail.decisions[0]).toMatchObject({ phase: 'intent', decision: 'approve', reason: 'ship it' });
    } else expect(item).toMatchObject({ status: 'approved', decision: { decision: 'approve', reason: 'ship it' } });
  });
});
