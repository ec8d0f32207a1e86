import moleculer from 'moleculer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalsService } from '../../../actors/approvals/approvals.service.ts';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { createGatesService } from '../../../actors/gates/gates.service.ts';
import { createRunsService } from '../../../actors/runs/runs.service.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import { createGatewayService, type GatewayRuntime } from '../../../gateway/gateway.service.ts';
import { startActors } from '../../support/actors.ts';
import { recordingExecutor } from '../../support/flow-node.ts';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { realDbEnv } from '../../support/tools.ts';

let h: BrokerHandle;
let url = '';
let drop: () => Promise<void>;
/** The read of the item after its decision was applied fails once while set (a bus timeout: the node's reply lost). */
let failRead = false;
const readFailures: string[] = [];

beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  const runtime: GatewayRuntime = { transport: 'http' };
  h = await startActors(
    [
      (infra) => createGatewayService(infra, runtime),
      (infra) => createRunsService(infra, { executor: recordingExecutor() }),
      createGatesService,
      createTwinService,
      createToolsService,
      createTwinAdapter,
      (infra) =>
        createApprovalsService(infra, {
          readAfterWrite: (id) => {
            if (!failRead) return;
            failRead = false;
            readFailures.push(id);
            throw new moleculer.Errors.RequestTimeoutError({ action: 'approvals.get', nodeID: 'lost-node' });
          },
        }),
    ],
    { SERVICE_PORT: '0', ...db.env },
  );
  await runtime.serve!();
  url = `http://127.0.0.1:${runtime.address!.port}`;
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await drop?.();
});

const http = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  httpJson(`${url}${path}`, method, body, headers);
const decide = (id: string, body: Json, etag: string) =>
  http('POST', `/v1/approvals/${id}/decision`, body, { 'if-match': etag });

/**
 * Issue 32 point 7: a decision that was applied is answered as applied, even when a later read fails (decision
 * 0148). The read of the item after the owner took the decision is made to fail (a bus timeout, answered 504 before);
 * the client gets the applied item, and sending the same decision again with the same If-Match (what a client whose
 * answer was lost does) gets the same answer, not 409.
 */
describe('an applied decision whose read afterwards fails', () => {
  it('a design change: 200 as applied, the repeat with the same If-Match the same answer; another decision 409', async () => {
    const rec = await call(h.broker, TwinActions.recordNode, {
      project_id: 'p-applied',
      node_type: 'design_change',
      name: 'Thicker web',
      properties: { status: 'pending' },
    });
    const id = `change:${rec.node.id}`;
    const before = await http('GET', `/v1/approvals/${id}`);
    expect(before.json.status).toBe('pending');
    const etag = String(before.json.etag);

    failRead = true;
    const first = await decide(id, { decision: 'approve', reason: 'stiffer' }, etag);
    expect(readFailures).toEqual([id]);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ id, status: 'approved', decision: { decision: 'approve', reason: 'stiffer' } });

    const again = await decide(id, { decision: 'approve', reason: 'stiffer' }, etag);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(again.json).toMatchObject({ id, status: 'approved', etag: first.json.etag });
    expect(again.json.decision).toEqual(first.json.decision);

    // Not a repeat: another decision, or the same one with another reason, on the state that was decided.
    expect((await decide(id, { decision: 'reject', reason: 'no' }, etag)).status).toBe(409);
    expect((await decide(id, { decision: 'approve', reason: 'other' }, etag)).status).toBe(409);
    const after = await http('GET', `/v1/approvals/${id}`);
    expect(after.json).toMatchObject({ status: 'approved', decision: first.json.decision });
  });

  it('a gate: 200 as applied, the repeat 200 and the run took the decision once', async () => {
    const run = await http('POST', '/v1/runs', { design_flow: 'mech_v1', project_id: 'p-applied-gate', goal: 'x' });
    expect(run.status, JSON.stringify(run.json)).toBe(201);
    const id = `gate:${String(run.json.id)}`;
    let gate: Json = {};
    await expect
      .poll(async () => (gate = (await http('GET', `/v1/approvals/${id}`)).json).status === 'pending', {
        timeout: 20_000,
        interval: 50,
      })
      .toBe(true);
    expect(gate.detail).toMatchObject({ phase: 'intent', attempt: 1 });
    const etag = String(gate.etag);

    failRead = true;
    const first = await decide(id, { decision: 'approve' }, etag);
    expect(readFailures).toContain(id);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const applied = (j: Json) =>
      (j.detail.decisions as Json[]).filter((d) => d.phase === 'intent' && d.decision === 'approve');
    expect(applied(first.json)).toHaveLength(1);

    const again = await decide(id, { decision: 'approve' }, etag);
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(applied(again.json)).toEqual(applied(first.json));
    const decisions = (await http('GET', `/v1/runs/${String(run.json.id)}`)).json.decisions as Json[];
    expect(decisions.filter((d) => d.phase === 'intent')).toHaveLength(1);
  });
});
