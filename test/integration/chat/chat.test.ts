import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpJson } from '../../support/http-raw.ts';
import { FAMILY_CASES } from '../../support/llm-servers/families.ts';
import type { ScriptedReply, WireServer } from '../../support/llm-servers/wire-server.ts';
import { readChatStream as readStream } from '../../support/chat-stream.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

// Chat threads over the gateway on a real port, the model each family's local wire server (OpenAI-compatible,
// Anthropic-native) reached through its SDK; the stream read with an SSE client library (eventsource), as a browser's
// EventSource would.

const KEY = 'sk-chat-test-0123456789';
const USAGE = { prompt_tokens: 50, completion_tokens: 5 };
const toolCall = (id: string, name: string, args: object) => ({ id, name, args: [JSON.stringify(args)] });

describe.each(FAMILY_CASES)('chat threads on the harness ($family)', (fc) => {
  const provider = fc.family === 'anthropic' ? 'anthropic' : 'local-llm';
  let t: TestNode;
  let model: WireServer;
  const http = (method: string, p: string, body?: unknown) => httpJson(`${t.url}${p}`, method, body);
  async function turn(threadId: string, content: string, ...replies: ScriptedReply[]) {
    model.enqueue(...replies);
    const posted = await http('POST', `/v1/chat/threads/${threadId}/messages`, { content });
    expect(posted.status, JSON.stringify(posted.json)).toBe(202);
    const events = await readStream(`${t.url}/v1/chat/threads/${threadId}/stream?turn_id=${posted.json.turn_id}`);
    return { turn_id: posted.json.turn_id as string, events };
  }

  beforeAll(async () => {
    model = await fc.start({ apiKey: KEY });
    t = await startTestNode({
      roles: 'gateway,harness,chat,tools,projects,adapter:project',
      env: { SERVICE_ROUTE_CHAT: `${provider}:${fc.model}`, SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    // The model server first: the turn left hanging by the 409 case fails on the closed connection and ends.
    await model?.close();
    await t?.stop();
  });

  it('without a credential for the chat route, every chat route answers 503 naming what to configure', async () => {
    for (const [method, p, body] of [
      ['POST', '/v1/chat/threads', {}],
      ['GET', '/v1/chat/threads', undefined],
    ] as const) {
      const r = await http(method, p, body);
      expect(r.status, p).toBe(503);
      expect(r.json.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { failure_class: 'environment' } });
      expect(r.json.error.message).toContain('POST /v1/harness/credentials');
    }
    const cred = await http('POST', '/v1/harness/credentials', {
      provider,
      api_key: KEY,
      base_url: model.url,
    });
    expect(cred.status).toBe(201);
  });

  it('streams a turn: stats, the tool call and its result, text, the message, final stats, agent.done', async () => {
    const thread = await http('POST', '/v1/chat/threads', { title: 'Rover' });
    expect(thread.status).toBe(201);
    const { events } = await turn(
      thread.json.id,
      'List the projects.',
      { toolCalls: [toolCall('c1', 'project__list', {})], usage: USAGE },
      { text: ['There are ', 'no projects yet.'], usage: USAGE },
    );
    expect(events.map((e) => e.type)).toEqual([
      'context.stats',
      'tool.call',
      'tool.result',
      'text.delta',
      'text.delta',
      'message',
      'context.stats',
      'agent.done',
    ]);
    expect(events[0]!.data).toMatchObject({ phase: 'initial', history_messages: 1 });
    expect(events[1]!.data).toMatchObject({ name: 'project__list', tool_id: 'project.list', requires_approval: false });
    expect(events[2]!.data).toMatchObject({ call_id: 'c1', status: 'success' });
    expect(events[5]!.data).toMatchObject({ content: 'There are no projects yet.', banners: [] });
    expect(events[6]!.data).toMatchObject({ phase: 'final', trace_tokens: expect.any(Number) });
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const stored = await http('GET', `/v1/chat/threads/${thread.json.id}`);
    expect(stored.json.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(stored.json.last_turn).toMatchObject({ status: 'done' });
    // The second model request carried the tool result in the family's own wire format.
    const answer = fc.family === 'anthropic' ? '"tool_use_id":"c1"' : '"tool_call_id":"c1"';
    expect(JSON.stringify(model.last?.body.messages)).toContain(answer);
  });

  it('a reply claiming work no tool call did gets the banner, counted in the metric', async () => {
    const thread = await http('POST', '/v1/chat/threads', {});
    const { events } = await turn(thread.json.id, 'Commit the geometry.', {
      text: ['I committed the geometry to the twin.'],
      usage: USAGE,
    });
    const message = events.find((e) => e.type === 'message')!;
    expect((message.data.banners as { kind: string }[]).map((b) => b.kind)).toEqual(['no_tool_call', 'twin_write']);
    expect(String(message.data.content)).toMatch(/^> ⚠/);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/service_chat_ungrounded_claim_total\{kind="no_tool_call"\} [1-9]/);
  });

  it('a provider that drops the stream midway: notify_error with the failure, then agent.done', async () => {
    const thread = await http('POST', '/v1/chat/threads', {});
    const { events } = await turn(thread.json.id, 'Hello?', { text: ['Hel', 'lo'], fault: 'truncate' });
    const types = events.map((e) => e.type);
    expect(types.slice(-3)).toEqual(['context.stats', 'notify_error', 'agent.done']);
    expect(events.at(-2)!.data.message).toEqual(expect.any(String));
    expect((await http('GET', `/v1/chat/threads/${thread.json.id}`)).json.last_turn.status).toBe('failed');
  });

  it('a client that reconnects with Last-Event-ID gets the rest of the turn, not a second turn', async () => {
    const thread = await http('POST', '/v1/chat/threads', {});
    const { turn_id, events: all } = await turn(thread.json.id, 'Say three things.', {
      text: ['one ', 'two ', 'three'],
      usage: USAGE,
    });
    const url = `${t.url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${turn_id}`;
    const first = await readStream(url, { stopAfter: 2 });
    const rest = await readStream(url, { lastEventId: first.at(-1)!.id });
    expect([...first, ...rest].map((e) => e.id)).toEqual(all.map((e) => e.id));
    // Resuming after the end of the finished turn is 204: an EventSource stops reconnecting, nothing waits.
    const after = await fetch(url, { headers: { accept: 'text/event-stream', 'last-event-id': all.at(-1)!.id } });
    expect(after.status).toBe(204);
    expect(model.requests.filter((r) => JSON.stringify(r.body).includes('Say three things.'))).toHaveLength(1);
  });

  it('refuses a second message while a turn runs, an unknown thread, and a bad Last-Event-ID', async () => {
    const thread = await http('POST', '/v1/chat/threads', {});
    model.enqueue({ fault: 'hang' });
    const first = await http('POST', `/v1/chat/threads/${thread.json.id}/messages`, { content: 'slow' });
    expect(first.status).toBe(202);
    expect((await http('POST', `/v1/chat/threads/${thread.json.id}/messages`, { content: 'again' })).status).toBe(409);
    expect((await http('GET', '/v1/chat/threads/nope')).status).toBe(404);
    const bad = await fetch(`${t.url}/v1/chat/threads/${thread.json.id}/stream`, { headers: { 'last-event-id': 'x' } });
    expect(bad.status).toBe(422);
    expect((await http('POST', `/v1/chat/threads/${thread.json.id}/messages`, { content: '' })).status).toBe(422);
  });
});
