import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAdapterService } from '../../../actors/adapters/kit/adapter.service.ts';
import { defineTool } from '../../../actors/adapters/kit/tool.ts';
import type { PhaseExecutor } from '../../../actors/runs/executor.ts';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { recordingExecutor, startFlowNode } from '../../support/flow-node.ts';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { useNode } from '../../support/tools.ts';

/**
 * Cancel over HTTP (issue 32 point 2, decision 0140): `POST /v1/runs/{id}/cancel {reason}` ends the run cancelled,
 * aborts the engine call its running phase waits on, closes its open gate (the queue item reads canceled), keeps what
 * it recorded; a second cancel is 409, an unknown run 404, a body without a reason 422.
 */
const engine = { started: defer<string>(), aborted: defer<string>(), phaseReturned: defer<void>() };

/** An engine call that runs until it is aborted (what a long solver or CAD call looks like to the run). */
const spinTool = defineTool({
  name: 'spin',
  description: 'runs until its call is aborted',
  input: z.object({ run: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async ({ run }, tc) => {
    engine.started.resolve(run);
    await new Promise<void>((resolve) =>
      tc.signal.addEventListener(
        'abort',
        () => {
          const r = tc.signal.reason as unknown;
          engine.aborted.resolve(r instanceof Error ? r.message : String(r));
          resolve();
        },
        { once: true },
      ),
    );
    return { run, finished: false };
  },
});

const recording = recordingExecutor();
/** Runs whose request context says `engine: true` call the spinning engine in their first phase; others record. */
const executor: PhaseExecutor = async (input) => {
  if (!(input.request.context as { engine?: boolean } | undefined)?.engine) return recording(input);
  const out = await input.callTool('canceltest.spin', { run: input.run_id });
  engine.phaseReturned.resolve();
  return { ok: false, kind: 'tool', message: JSON.stringify(out) };
};

const node = useNode((env) =>
  startFlowNode({
    executor,
    env,
    extra: [createAdapterService({ id: 'canceltest', version: '0.0.1', capability: 'test', tools: [spinTool] })],
  }),
);
const http = (method: string, path: string, body?: unknown) => httpJson(`${node.url}${path}`, method, body);
const start = async (project: string, context: Record<string, unknown> = {}) => {
  const r = await http('POST', '/v1/runs', { design_flow: 'mech_v1', project_id: project, goal: 'a bracket', context });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.id as string;
};

describe('POST /v1/runs/{id}/cancel', () => {
  it('refuses hostile input with the spec statuses: unknown run 404, a body without a usable reason 422', async () => {
    expect((await http('POST', '/v1/runs/run_nope/cancel', { reason: 'x' })).status).toBe(404);
    const id = await start('p-cancel-bad');
    for (const body of [
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 5 },
      { reason: 'x'.repeat(2001) },
      { reason: 'ok', extra: true },
      [],
      'stop',
    ]) {
      const r = await http('POST', `/v1/runs/${id}/cancel`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
    expect((await http('POST', `/v1/runs/${'r'.repeat(201)}/cancel`, { reason: 'x' })).status).toBe(422);
    // None of them touched the run.
    expect((await http('GET', `/v1/runs/${id}`)).json.ended).toBeNull();
  });

  it('stops the running phase (its engine call aborted), keeps what was recorded, reads CANCELLED, and a second cancel is 409', async () => {
    const id = await start('p-cancel-run', { engine: true });
    await expect(engine.started.promise).resolves.toBe(id);

    const r = await http('POST', `/v1/runs/${id}/cancel`, { reason: 'wrong load case' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({
      id,
      status: 'cancelled',
      ended: { status: 'cancelled', message: 'wrong load case' },
    });
    await expect(engine.aborted.promise).resolves.toBe('run cancelled: wrong load case');
    await engine.phaseReturned.promise;

    const again = await http('POST', `/v1/runs/${id}/cancel`, { reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('CONFLICT');

    const life = await http('GET', `/v1/runs/${id}/lifecycle`);
    expect(life.json).toMatchObject({ status: 'cancelled', verdict: 'CANCELLED' });
    expect(life.json.phases[0]).toMatchObject({ id: 'intent', execution_status: 'CANCELLED' });
    expect((await http('GET', `/v1/runs/${id}`)).json.status).toBe('cancelled');
    // The aborted phase's answer is not recorded as a phase result; what the run recorded before stays.
    const { events } = await call(node.handle.broker, R.events, { run_id: id });
    const types = events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['RunCreated', 'PhaseStarted', 'RunEnded']));
    expect(types).not.toContain('PhaseFailed');
    expect(events.at(-1)).toMatchObject({ type: 'RunEnded', status: 'cancelled', message: 'wrong load case' });
  });

  it('ends the open gate: its queue item reads canceled and takes no decision; the drafts stay, abandoned', async () => {
    const id = await start('p-cancel-gate');
    await expect
      .poll(async () => (await http('GET', `/v1/runs/${id}`)).json.gate?.phase ?? null, { timeout: 15_000 })
      .toBe('intent');
    expect((await http('GET', `/v1/approvals/gate:${id}`)).json.status).toBe('pending');

    expect((await http('POST', `/v1/runs/${id}/cancel`, { reason: 'superseded by a new brief' })).status).toBe(200);
    const item = await http('GET', `/v1/approvals/gate:${id}`);
    expect(item.json).toMatchObject({ status: 'canceled', allowed_decisions: [] });
    const listed = async (status: string) =>
      (await http('GET', `/v1/approvals?status=${status}&kind=gate&project_id=p-cancel-gate`)).json.items.map(
        (i: Json) => [i.id, i.status],
      );
    expect(await listed('pending')).toEqual([]);
    expect(await listed('decided')).toEqual([[`gate:${id}`, 'canceled']]);
    expect(await listed('all')).toEqual([[`gate:${id}`, 'canceled']]);
    const decided = await http('POST', `/v1/approvals/gate:${id}/decision`, { decision: 'approve', reason: '' });
    expect(decided.status).toBe(409);
    expect((await http('POST', `/v1/runs/${id}/cancel`, { reason: 'twice' })).status).toBe(409);

    // Every phase the run had not finished reads cancelled: the run view, the flow state, the lifecycle.
    const view = (await http('GET', `/v1/runs/${id}`)).json;
    expect(view.phases.map((p: Json) => p.status)).toEqual(view.phases.map(() => 'cancelled'));
    const flow = (await http('GET', `/v1/runs/${id}/flow-state`)).json;
    expect(flow.phases.map((p: Json) => p.status)).toEqual(flow.phases.map(() => 'cancelled'));
    const life = (await http('GET', `/v1/runs/${id}/lifecycle`)).json;
    expect(life.verdict).toBe('CANCELLED');
    expect(life.phases.map((p: Json) => p.execution_status)).toEqual(life.phases.map(() => 'CANCELLED'));
    const changes = await http('GET', `/v1/twin/runs/${id}/changes`);
    expect(changes.json.revisions.length).toBeGreaterThan(0);
    expect(changes.json.revisions.map((rev: Json) => rev.status)).toEqual(
      changes.json.revisions.map(() => 'abandoned'),
    );
  });
});

function defer<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
