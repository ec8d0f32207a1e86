import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpJson } from '../../support/http-raw.ts';
import { readChatStream, type SeenEvent } from '../../support/chat-stream.ts';
import { createProject, decisionsOf, HOLD_ROLES, startHoldsNode, type HoldsNode } from '../../support/holds.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';

// A chat turn whose model reads a project, then records a design decision in the twin: the write is held for a
// person (chat's approval mode is hold), shows in the approvals queue like every held call, is approved there, then
// runs; the model reads its result and answers. Two credentials for the model: the first is rate-limited (429) and
// the turn goes on with the second.

const KEYS = ['sk-chat-first-0123456789', 'sk-chat-second-012345678'];
const USAGE = { prompt_tokens: 80, completion_tokens: 8 };
const toolCall = (id: string, name: string, args: object) => ({ id, name, args: [JSON.stringify(args)] });

describe('a chat turn with a held twin write', () => {
  let t: HoldsNode;
  let model: WireServer;
  const http = (method: string, p: string, body?: unknown) => httpJson(`${t.url}${p}`, method, body);

  beforeAll(async () => {
    model = await startOpenAIServer();
    t = await startHoldsNode({
      roles: `${HOLD_ROLES},harness,chat,approvals,adapter:project`,
      env: { SERVICE_ROUTE_CHAT: 'local-llm:llama3.1:8b', SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' },
    });
    for (const api_key of KEYS) {
      const r = await http('POST', '/v1/harness/credentials', { provider: 'local-llm', api_key, base_url: model.url });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => {
    await model?.close();
    await t?.stop();
  });

  it('holds the write for a person, runs it once approved in the queue, and the model answers on its result', async () => {
    const project = await createProject(t.url, 'Chat rover');
    const thread = await http('POST', '/v1/chat/threads', { project_id: project, title: 'Decisions' });
    expect(thread.status).toBe(201);
    model.enqueue(
      { fault: { status: 429, message: 'slow down', retryAfter: '1' } },
      { toolCalls: [toolCall('c1', 'project__get', { project_id: project })], usage: USAGE },
      {
        toolCalls: [
          toolCall('c2', 'twin__record_decision', { project_id: project, title: 'Weld the bracket', decision: 'weld' }),
          toolCall('c3', 'project__get', { project_id: project }),
        ],
        usage: USAGE,
      },
      { text: ['Recorded the decision to weld the bracket.'], usage: USAGE },
    );
    const posted = await http('POST', `/v1/chat/threads/${thread.json.id}/messages`, { content: 'Record: weld it.' });
    expect(posted.status).toBe(202);

    let approved: Promise<unknown> | undefined;
    const approve = async () => {
      // The held call is in the unified queue, decided with the same code as every other kind; it would be denied
      // after the chat's own window (SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS, 1,800 s), not the holds default.
      const item = await expectPending(project);
      const held = (await t.pending()).find((r) => r.project_id === project);
      expect(held?.window_seconds).toBe(1800);
      const r = await http('POST', `/v1/approvals/${item}/decision`, { decision: 'approve', reason: 'ok by me' });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
    };
    const events = await readChatStream(
      `${t.url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${posted.json.turn_id}`,
      { onEvent: (e: SeenEvent) => void (e.type === 'tool.approval_requested' && (approved = approve())) },
    );
    await approved;

    const requested = events.find((e) => e.type === 'tool.approval_requested')!;
    expect(requested.data).toMatchObject({
      tool: 'twin.record_decision',
      arguments: { project_id: project, title: 'Weld the bracket' },
      run_id: expect.any(String),
    });
    const results = events.filter((e) => e.type === 'tool.result').map((e) => e.data);
    expect(results).toEqual([
      expect.objectContaining({ call_id: 'c1', status: 'success', cached: false }),
      expect.objectContaining({ call_id: 'c2', tool_id: 'twin.record_decision', status: 'success' }),
      expect.objectContaining({ call_id: 'c3', status: 'success', cached: true }), // rule 3: same call, same turn
    ]);
    expect(events.find((e) => e.type === 'message')!.data).toMatchObject({ banners: [] });
    expect(events.at(-1)!.type).toBe('agent.done');
    expect(await decisionsOf(t.url, project)).toEqual(['Weld the bracket']);

    // 429 on the first credential: the call rotated to the second, which served the rest of the turn.
    const bearers = model.requests.map((r) => r.headers.authorization);
    expect(bearers[0]).toBe(`Bearer ${KEYS[0]}`);
    expect(bearers.slice(1).every((b) => b === `Bearer ${KEYS[1]}`)).toBe(true);
  });

  async function expectPending(project: string): Promise<string> {
    let id: string | undefined;
    await expect
      .poll(async () => {
        const q = await http('GET', `/v1/approvals?status=pending&kind=tool_call&project_id=${project}`);
        id = q.json.items?.[0]?.id;
        return id;
      })
      .toBeTruthy();
    return id!;
  }
});
