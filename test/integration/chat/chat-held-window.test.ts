import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpJson } from '../../support/http-raw.ts';
import { readChatStream, type SeenEvent } from '../../support/chat-stream.ts';
import { createProject, decisionsOf, HOLD_ROLES, startHoldsNode, type HoldsNode } from '../../support/holds.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';

// Issue 27, finding 11: a chat turn whose write is held failed once the default request timeout passed
// (harness.turn was called with SERVICE_REQUEST_TIMEOUT_MS) while the hold stayed approvable for 30 minutes. Here
// the request timeout is 1 s and the person approves only after more than that: the turn must still complete.

const REQUEST_TIMEOUT_MS = 1000;
const USAGE = { prompt_tokens: 40, completion_tokens: 8 };
const toolCall = (id: string, name: string, args: object) => ({ id, name, args: [JSON.stringify(args)] });

describe('a chat turn held longer than the request timeout', () => {
  let t: HoldsNode;
  let model: WireServer;
  const http = (method: string, p: string, body?: unknown) => httpJson(`${t.url}${p}`, method, body);

  beforeAll(async () => {
    model = await startOpenAIServer();
    t = await startHoldsNode({
      roles: `${HOLD_ROLES},harness,chat,approvals,adapter:project`,
      env: {
        SERVICE_ROUTE_CHAT: 'local-llm:llama3.1:8b',
        SERVICE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1',
      },
    });
    const r = await http('POST', '/v1/harness/credentials', {
      provider: 'local-llm',
      api_key: 'sk-chat-window-0123456789',
      base_url: model.url,
    });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await model?.close();
    await t?.stop();
  });

  it('waits for the person past SERVICE_REQUEST_TIMEOUT_MS and runs the write once approved', async () => {
    const project = await createProject(t.url, 'Held window');
    const thread = await http('POST', '/v1/chat/threads', { project_id: project, title: 'Slow approval' });
    model.enqueue(
      {
        toolCalls: [
          toolCall('w1', 'twin__record_decision', { project_id: project, title: 'Bolt it', decision: 'bolt' }),
        ],
        usage: USAGE,
      },
      { text: ['Recorded the decision to bolt it.'], usage: USAGE },
    );
    const posted = await http('POST', `/v1/chat/threads/${thread.json.id}/messages`, { content: 'Record: bolt it.' });
    expect(posted.status).toBe(202);

    let approved: Promise<void> | undefined;
    const approveLate = async () => {
      const since = performance.now();
      let item: string | undefined;
      await expect
        .poll(async () => {
          const q = await http('GET', `/v1/approvals?status=pending&kind=tool_call&project_id=${project}`);
          item = q.json.items?.[0]?.id;
          return item;
        })
        .toBeTruthy();
      // The person takes longer than the bus's default request timeout (no sleep: poll the elapsed time).
      await expect
        .poll(() => performance.now() - since, { timeout: 10 * REQUEST_TIMEOUT_MS })
        .toBeGreaterThan(2 * REQUEST_TIMEOUT_MS);
      const r = await http('POST', `/v1/approvals/${item}/decision`, { decision: 'approve', reason: 'late but fine' });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
    };
    const events = await readChatStream(
      `${t.url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${posted.json.turn_id}`,
      { onEvent: (e: SeenEvent) => void (e.type === 'tool.approval_requested' && (approved = approveLate())) },
    );
    await approved;

    expect(events.filter((e) => e.type === 'notify_error').map((e) => e.data)).toEqual([]);
    expect(events.find((e) => e.type === 'tool.result')?.data).toMatchObject({
      call_id: 'w1',
      tool_id: 'twin.record_decision',
      status: 'success',
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent.done', data: { status: 'done' } });
    expect(await decisionsOf(t.url, project)).toEqual(['Bolt it']);
  });
});
