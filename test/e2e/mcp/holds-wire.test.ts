import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { createProject, DASHBOARD, decisionsOf, startHoldsNode } from '../../support/holds.ts';
import { rawMcp } from '../../support/mcp-raw.ts';
import { sseMessages } from '../../support/sse-messages.ts';
import { useNode } from '../../support/tools.ts';

const t = useNode((env) => startHoldsNode({ env: env }));

const write = (project: string, title: string) => ({
  name: 'twin.record_decision',
  arguments: { project_id: project, title, decision: 'weld it' },
});
const recordFor = async (project: string) => {
  await expect.poll(async () => (await t.pending()).some((r) => r.project_id === project)).toBe(true);
  return (await t.pending()).find((r) => r.project_id === project)!;
};
const get = (id: string) => call(t.node.broker, HoldsActions.get, { id });
const postCall = (sessionId: string, id: number, params: unknown, signal?: AbortSignal) =>
  fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    signal,
  });

describe('held calls on the wire', () => {
  it("puts the question on the call's own stream, withdraws it before the timed_out result, and acknowledges a late answer without applying it", async () => {
    const project = await createProject(t.url, 'late answer');
    const mcp = rawMcp(t.url);
    const { sessionId } = await mcp.initialize('2025-11-25', { elicitation: {} });
    const res = await postCall(sessionId, 7, write(project, 'Weld the bracket'));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const stream = sseMessages(res.body!);
    const question = await stream.next();
    expect(question).toMatchObject({
      jsonrpc: '2.0',
      id: expect.stringMatching(/^srv-/),
      method: 'elicitation/create',
      params: { mode: 'form' },
    });
    const rec = await recordFor(project);
    await t.advance(100);
    expect(await stream.next()).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: question.id, reason: expect.stringContaining('100 s') },
    });
    expect(await stream.next()).toMatchObject({
      id: 7,
      error: { code: -32001, data: { outcome: 'timed_out', approval_id: `tool:${rec.id}` } },
    });
    const late = await mcp.post(
      { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { decision: 'approve' } } },
      { 'mcp-session-id': sessionId },
    );
    expect(late.status).toBe(202);
    expect(await get(rec.id)).toMatchObject({ status: 'expired', decision: null });
    expect(await decisionsOf(t.url, project)).toEqual([]);
  });

  it("asks on the open GET stream when the call has no progress token, and on the call's own stream when it has one", async () => {
    const project = await createProject(t.url, 'get stream');
    const mcp = rawMcp(t.url);
    const { sessionId } = await mcp.initialize('2025-11-25', { elicitation: {} });
    const answer = (id: string, result: unknown) =>
      mcp.post({ jsonrpc: '2.0', id, result }, { 'mcp-session-id': sessionId });
    const get = await fetch(`${t.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
    const standalone = sseMessages(get.body!);
    try {
      const plain = postCall(sessionId, 9, write(project, 'Pin it'));
      const q = await standalone.next();
      expect(q).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });
      expect((await answer(q.id, { action: 'accept', content: { decision: 'approve' } })).status).toBe(202);
      const res = await plain;
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(((await res.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
      expect(await decisionsOf(t.url, project)).toEqual(['Pin it']);

      const withToken = await postCall(sessionId, 10, {
        ...write(project, 'Pin it twice'),
        _meta: { progressToken: 'p-1' },
      });
      expect(withToken.headers.get('content-type')).toContain('text/event-stream');
      const own = sseMessages(withToken.body!);
      expect(await own.next()).toMatchObject({
        method: 'notifications/progress',
        params: { progressToken: 'p-1', progress: 0, total: 180 },
      });
      const q2 = await own.next();
      expect(q2.method).toBe('elicitation/create');
      await answer(q2.id, { action: 'decline' });
      expect(await own.next()).toMatchObject({
        id: 10,
        error: { code: -32001, data: { outcome: 'rejected', route: 'elicitation' } },
      });
      expect(await decisionsOf(t.url, project)).toEqual(['Pin it']);
    } finally {
      await standalone.close();
    }
  });

  it("cancels a hold whose client closes the call's stream", async () => {
    const project = await createProject(t.url, 'closed stream');
    const { sessionId } = await rawMcp(t.url).initialize();
    const abort = new AbortController();
    const res = postCall(sessionId, 8, write(project, 'Bolt it'), abort.signal).catch((e: unknown) => e);
    const rec = await recordFor(project);
    expect(rec.route).toBe('dashboard');
    abort.abort();
    await res;
    await expect.poll(async () => (await get(rec.id)).status).toBe('canceled');
    expect((await get(rec.id)).error).toContain('stream closed');
    expect(await decisionsOf(t.url, project)).toEqual([]);
  });

  it('falls back to the dashboard queue for a client without elicitation; a queue approval runs the call and answers the client', async () => {
    const project = await createProject(t.url, 'dashboard');
    const client = new Client({ name: 'no-elicit-client', version: '2.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    const res = client.callTool(write(project, 'Glue it'));
    const rec = await recordFor(project);
    expect(rec).toMatchObject({
      kind: 'tool_call',
      route: 'dashboard',
      source: 'mcp',
      status: 'awaiting_approval',
      tool_id: 'twin.record_decision',
    });
    expect(rec.requested_by).toContain('no-elicit-client');
    expect(rec.detail).toMatchObject({ caller: { kind: 'remote', client: 'no-elicit-client' } });
    expect(await decisionsOf(t.url, project)).toEqual([]);
    await call(t.node.broker, HoldsActions.decide, {
      id: `tool:${rec.id}`,
      decision: 'approve',
      reason: 'fine',
      decider: DASHBOARD,
    });
    const out = await res;
    expect(out.isError).toBeFalsy();
    expect(await decisionsOf(t.url, project)).toEqual(['Glue it']);
    // No approvals queue on this node's bus: nobody could have seen the hold, and the metric says so.
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/^service_unreachable_approval_hold_total [1-9]/m);
    await client.close();
  });
});
