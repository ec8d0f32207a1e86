import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { fileRequest, pendingGate, startApprovalsNode, startRun } from '../../support/approvals.ts';
import { useNode } from '../../support/tools.ts';

const t = useNode((env) => startApprovalsNode({ env }));

type Json = Record<string, any>;

/** Sends a request and answers status, JSON body and the ETag header. */
async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Json; etag: string | null }> {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {}, etag: res.headers.get('etag') };
}
const dash = { 'x-service-surface': 'dashboard' };

/** A run parked at its Intent gate, with the gate item's ETag as GET answers it. */
async function atIntent(project: string): Promise<{ runId: string; etag: string; item: Json }> {
  const run = await startRun(t, project);
  await pendingGate(t, run.id, 'intent');
  const got = await send('GET', `/v1/approvals/gate:${run.id}`);
  return { runId: run.id, etag: got.etag ?? '', item: got.json };
}

describe('a gate decision names the gate it decides', () => {
  it('the gate item carries its instance: detail phase, attempt, retries left, and an ETag that changes with the open gate', async () => {
    const { runId, etag, item } = await atIntent('p-target-shape');
    expect(etag, 'GET /v1/approvals/{id} answers an ETag').toMatch(/^"[^"]+"$/);
    expect(item.detail).toMatchObject({ run_id: runId, phase: 'intent', attempt: 1, retries_left: expect.any(Number) });
    expect(item.etag).toBe(etag);
    const listed = (await send('GET', '/v1/approvals?project_id=p-target-shape')).json.items.find(
      (i: Json) => i.id === `gate:${runId}`,
    );
    expect(listed.etag).toBe(etag);
    expect(
      (
        await send(
          'POST',
          `/v1/approvals/gate:${runId}/decision`,
          { decision: 'approve' },
          { ...dash, 'if-match': etag },
        )
      ).status,
    ).toBe(200);
    const decided = await send('GET', `/v1/approvals/gate:${runId}`);
    await pendingGate(t, runId, 'needs');
    const next = await send('GET', `/v1/approvals/gate:${runId}`);
    expect(new Set([etag, decided.etag, next.etag]).size).toBe(3);
  });

  it('a reject naming the Intent gate, sent after Intent was approved and Needs opened, is 409 and leaves the run going', async () => {
    const { runId, etag } = await atIntent('p-target-stale');
    expect((await send('POST', `/v1/approvals/gate:${runId}/decision`, { decision: 'approve' }, dash)).status).toBe(
      200,
    );
    await pendingGate(t, runId, 'needs');
    const stale = [
      () =>
        send(
          'POST',
          `/v1/approvals/gate:${runId}/decision`,
          { decision: 'reject', reason: 'meant Intent', phase: 'intent', attempt: 1 },
          dash,
        ),
      () =>
        send(
          'POST',
          `/v1/approvals/gate:${runId}/decision`,
          { decision: 'reject', reason: 'meant Intent', phase: 'intent' },
          dash,
        ),
      () =>
        send('POST', `/v1/runs/${runId}/approval`, {
          decision: 'reject',
          reason: 'meant Intent',
          phase: 'intent',
          attempt: 1,
        }),
      () =>
        send('POST', `/v1/approvals/gate:${runId}/inline-decision`, {
          decision: 'reject',
          reason: 'meant Intent',
          phase: 'intent',
          attempt: 1,
        }),
      () =>
        send(
          'POST',
          `/v1/approvals/gate:${runId}/decision`,
          { decision: 'reject', reason: 'meant Intent' },
          { ...dash, 'if-match': etag },
        ),
      () =>
        send(
          'POST',
          `/v1/approvals/gate:${runId}/decision`,
          { decision: 'reject', reason: 'meant Intent' },
          { ...dash, 'if-match': `W/${etag}` },
        ),
      () =>
        send(
          'POST',
          `/v1/runs/${runId}/approval`,
          { decision: 'reject', reason: 'meant Intent' },
          { 'if-match': etag },
        ),
      () =>
        send(
          'POST',
          `/v1/approvals/gate:${runId}/inline-decision`,
          { decision: 'reject', reason: 'meant Intent' },
          { 'if-match': etag },
        ),
    ];
    for (const [i, attempt] of stale.entries()) {
      const r = await attempt();
      expect(r.status, `case ${i}: ${JSON.stringify(r.json)}`).toBe(409);
      expect(r.json.error.code).toBe('CONFLICT');
      expect(r.json.error.message, `case ${i}`).toMatch(/open gate is .*needs.*attempt 1/);
    }
    const run = (await send('GET', `/v1/runs/${runId}`)).json;
    expect(run.status).toBe('awaiting_approval');
    expect(run.decisions).toHaveLength(1);
    expect((await send('GET', `/v1/approvals/gate:${runId}`)).json).toMatchObject({
      status: 'pending',
      detail: { phase: 'needs' },
    });
    // Naming the gate that is open decides it; `*` names whichever gate is open (as no target does).
    expect(
      (
        await send(
          'POST',
          `/v1/approvals/gate:${runId}/decision`,
          { decision: 'approve', phase: 'needs', attempt: 1 },
          { ...dash, 'if-match': '*' },
        )
      ).status,
    ).toBe(200);
  });

  it('bad targets: a malformed If-Match or a phase on a non-gate item is 422; a stale ETag on another kind is 409', async () => {
    const { runId } = await atIntent('p-target-bad');
    for (const bad of ['not-quoted', '"a" "b"', 'W/']) {
      const r = await send(
        'POST',
        `/v1/approvals/gate:${runId}/decision`,
        { decision: 'approve' },
        { ...dash, 'if-match': bad },
      );
      expect(r.status, bad).toBe(422);
      expect(r.json.error.code).toBe('VALIDATION_FAILED');
    }
    expect(
      (await send('POST', `/v1/approvals/gate:${runId}/decision`, { decision: 'approve', attempt: 0 }, dash)).status,
    ).toBe(422);
    const request = await fileRequest(t, 'p-target-bad');
    expect(
      (await send('POST', `/v1/approvals/${request}/decision`, { decision: 'approve', phase: 'intent' }, dash)).status,
    ).toBe(422);
    const got = await send('GET', `/v1/approvals/${request}`);
    expect(got.etag).toMatch(/^"[^"]+"$/);
    expect(
      (
        await send(
          'POST',
          `/v1/approvals/${request}/decision`,
          { decision: 'approve' },
          { ...dash, 'if-match': '"elsewhere"' },
        )
      ).status,
    ).toBe(409);
    expect(
      (
        await send(
          'POST',
          `/v1/approvals/${request}/decision`,
          { decision: 'approve' },
          { ...dash, 'if-match': `"elsewhere", ${got.etag}` },
        )
      ).status,
    ).toBe(200);
    expect((await send('GET', `/v1/runs/${runId}`)).json.decisions).toHaveLength(0);
  });
});

describe('the elicitation path (flow.await_gate) names the gate its form showed', () => {
  it('an answer given after that gate was decided elsewhere and the next opened is refused, and the next gate stays open', async () => {
    const { runId } = await atIntent('p-target-elicit');
    const client = new Client({ name: 'gate-target-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(String(req.params.message));
      // While the person reads the form, someone approves Intent on the dashboard and Needs opens.
      expect(
        (
          await send(
            'POST',
            `/v1/approvals/gate:${runId}/decision`,
            { decision: 'approve', phase: 'intent', attempt: 1 },
            dash,
          )
        ).status,
      ).toBe(200);
      await pendingGate(t, runId, 'needs');
      return { action: 'accept', content: { decision: 'reject', reason: 'the intent is wrong' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    try {
      const res = await client.callTool({ name: 'flow.await_gate', arguments: { run_id: runId, wait_seconds: 30 } });
      expect(asked[0]).toMatch(/of phase intent \(attempt 1\)/);
      expect(res.isError, JSON.stringify(res)).toBe(true);
      expect(JSON.stringify(res.content)).toMatch(/open gate is needs attempt 1/);
    } finally {
      await client.close();
    }
    const run = (await send('GET', `/v1/runs/${runId}`)).json;
    expect(run.status).toBe('awaiting_approval');
    expect(run.decisions.map((d: Json) => [d.phase, d.decision])).toEqual([['intent', 'approve']]);
  });
});
