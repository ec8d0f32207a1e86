import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HoldsActions } from '../../../contracts/actions/approvals.actions.ts';
import { createProject, DASHBOARD, decisionsOf, startHoldsNode } from '../../support/holds.ts';
import { useNode } from '../../support/tools.ts';

const t = useNode((env) => startHoldsNode({ env: { ...env, SERVICE_DASHBOARD_URL: 'http://dash.example/' } }));

/** The person behind the client's elicitation handler: records each question and answers when the test says so. */
function person() {
  const asked: {
    id: string | number;
    params: Record<string, any>;
    signal: AbortSignal;
    answer(r: ElicitResult): void;
  }[] = [];
  const handler = (
    req: { params: Record<string, unknown> },
    extra: { signal: AbortSignal; requestId: string | number },
  ) =>
    new Promise<ElicitResult>((answer) =>
      asked.push({ id: extra.requestId, params: req.params, signal: extra.signal, answer }),
    );
  return { asked, handler };
}

async function connect(p: ReturnType<typeof person>) {
  const client = new Client({ name: 'holds-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, p.handler);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
  return client;
}

const write = (project: string, title: string) => ({
  name: 'twin.record_decision',
  arguments: { project_id: project, title, decision: 'M6 A2-70 bolts' },
});
const recordFor = async (project: string) => {
  await expect.poll(async () => (await t.pending()).some((r) => r.project_id === project)).toBe(true);
  return (await t.pending()).find((r) => r.project_id === project)!;
};
const statusOf = async (id: string) => (await call(t.node.broker, HoldsActions.get, { id })).status;
const errorOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError & { data: Record<string, unknown> };
};

describe('a held twin write answered in the client (elicitation)', () => {
  it('asks in the client, and runs the write once the person approves there', async () => {
    const project = await createProject(t.url, 'held approve');
    const p = person();
    const client = await connect(p);
    const res = client.callTool(write(project, 'Use M6 bolts'));
    await expect.poll(() => p.asked.length).toBe(1);
    const rec = await recordFor(project);
    expect(rec).toMatchObject({
      route: 'elicitation',
      source: 'mcp',
      kind: 'tool_call',
      tool_id: 'twin.record_decision',
    });
    expect(p.asked[0].params.message).toContain(`tool:${rec.id}`);
    expect(p.asked[0].params.requestedSchema).toMatchObject({
      required: ['decision'],
      properties: { decision: { enum: ['approve', 'reject'] } },
    });
    expect(await decisionsOf(t.url, project)).toEqual([]);
    p.asked[0].answer({ action: 'accept', content: { decision: 'approve', reason: 'checked the load case' } });
    const out = await res;
    expect(out.isError).toBeFalsy();
    expect(out.structuredContent).toMatchObject({ node_id: expect.any(String) });
    expect(await decisionsOf(t.url, project)).toEqual(['Use M6 bolts']);
    const after = await call(t.node.broker, HoldsActions.get, { id: rec.id });
    expect(after).toMatchObject({
      status: 'approved',
      decision: {
        decision: 'approve',
        approver: 'local:elicitation',
        approver_verified: false,
        surface: 'mcp',
        reason: 'checked the load case',
      },
    });
    await client.close();
  });

  it('refuses a queue decision while the question is in the client, and never runs a declined write', async () => {
    const project = await createProject(t.url, 'held decline');
    const p = person();
    const client = await connect(p);
    const res = errorOf(client.callTool(write(project, 'Use M5 bolts')));
    await expect.poll(() => p.asked.length).toBe(1);
    const rec = await recordFor(project);
    await expect(
      call(t.node.broker, HoldsActions.decide, { id: rec.id, decision: 'approve', decider: DASHBOARD }),
    ).rejects.toMatchObject({ type: 'CONFLICT' });
    p.asked[0].answer({ action: 'decline' });
    const err = await res;
    expect(err.code).toBe(-32001);
    expect(err.data).toMatchObject({
      tool_id: 'twin.record_decision',
      code: 'approval_required',
      outcome: 'rejected',
      retryable: false,
      approval_id: `tool:${rec.id}`,
      route: 'elicitation',
    });
    expect(err.message).toContain('declined in the client');
    expect(await statusOf(rec.id)).toBe('rejected');
    expect(await decisionsOf(t.url, project)).toEqual([]);
    await client.close();
  });

  it('reports progress with a token from the start of the hold, every interval, naming the approval and the Approvals page', async () => {
    const project = await createProject(t.url, 'held progress');
    const p = person();
    const client = await connect(p);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const res = client.callTool(write(project, 'Use M8 bolts'), undefined, { onprogress: (n) => void seen.push(n) });
    await expect.poll(() => seen.length).toBe(1);
    const rec = await recordFor(project);
    expect(rec.window_seconds).toBe(180);
    for (const n of [2, 3, 4]) {
      await t.advance(10);
      await expect.poll(() => seen.length).toBe(n);
    }
    expect(seen.map((s) => s.progress)).toEqual([0, 10, 20, 30]);
    for (const s of seen) {
      expect(s.total).toBe(180);
      expect(s.message).toContain(`tool:${rec.id}`);
      expect(s.message).toContain('http://dash.example/approvals');
    }
    await expect.poll(() => p.asked.length).toBe(1);
    p.asked[0].answer({ action: 'accept', content: { decision: 'approve' } });
    expect((await res).isError).toBeFalsy();
    expect(await decisionsOf(t.url, project)).toEqual(['Use M8 bolts']);
    await client.close();
  });

  it('ends a hold whose window passes unanswered as timed_out, withdraws the question, and never runs the write', async () => {
    const project = await createProject(t.url, 'held expiry');
    const p = person();
    const client = await connect(p);
    const res = errorOf(client.callTool(write(project, 'Use M10 bolts')));
    await expect.poll(() => p.asked.length).toBe(1);
    const rec = await recordFor(project);
    await t.advance(99);
    expect(await statusOf(rec.id)).toBe('awaiting_approval');
    await t.advance(1);
    const err = await res;
    expect(err.data).toMatchObject({
      outcome: 'timed_out',
      approval_id: `tool:${rec.id}`,
      held_seconds: 100,
      window_seconds: 100,
      route: 'elicitation',
    });
    expect(await statusOf(rec.id)).toBe('expired');
    await expect.poll(() => p.asked[0].signal.aborted).toBe(true);
    expect(await decisionsOf(t.url, project)).toEqual([]);
    await client.close();
  });

  it('cancels the hold when the client aborts its call, and never runs the write', async () => {
    const project = await createProject(t.url, 'held cancel');
    const p = person();
    const client = await connect(p);
    const stop = new AbortController();
    const res = client.callTool(write(project, 'Use rivets'), undefined, { signal: stop.signal });
    await expect.poll(() => p.asked.length).toBe(1);
    const rec = await recordFor(project);
    stop.abort('changed my mind');
    await expect(res).rejects.toThrow();
    await expect.poll(() => statusOf(rec.id)).toBe('canceled');
    await expect.poll(() => p.asked[0].signal.aborted).toBe(true);
    expect(await decisionsOf(t.url, project)).toEqual([]);
    await client.close();
  });
});
