import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { readChatStream } from '../../support/chat-stream.ts';
import { httpJson } from '../../support/http-raw.ts';
import { startAnthropicServer } from '../../support/llm-servers/anthropic.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { startTestIdp, type TestIdp } from '../../support/oidc-provider.ts';

/**
 * Decision 0113 amended: a chat turn's model calls name the chat request's principal in the usage ledger (the
 * bearer's subject and client id); a body claiming a principal names no one; a refused bearer is 401, no turn.
 */
const KEY = 'sk-chat-principal-0123456789';
const PUBLIC_URL = 'http://127.0.0.1:9';
const RESOURCE = `${PUBLIC_URL}/mcp`;
let idp: TestIdp;
let model: WireServer;
let t: TestNode;

beforeAll(async () => {
  idp = await startTestIdp({ resources: [RESOURCE], accounts: { 'person-c': { scopes: ['mcp:read'] } } });
  model = await startAnthropicServer({ apiKey: KEY });
  t = await startTestNode({
    roles: 'gateway,harness,chat,runs,tools,twin,projects',
    env: {
      SERVICE_ROUTE_CHAT: 'anthropic:claude-sonnet-5-5',
      SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1',
      SERVICE_PUBLIC_URL: PUBLIC_URL,
      SERVICE_OAUTH_ISSUER: idp.issuer,
    },
  });
}, 60_000);
afterAll(async () => {
  await model?.close();
  await t?.stop();
  await idp?.close();
});

const http = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
  httpJson(`${t.url}${p}`, method, body, headers);
const bearer = async (sub: string, extra: Record<string, unknown> = {}) => ({
  authorization: `Bearer ${await idp.sign({ iss: idp.issuer, aud: RESOURCE, sub, client_id: 'chat-app', scope: 'mcp:read', exp: Math.floor(Date.now() / 1000) + 300, ...extra })}`,
});
const callsOf = async (subject: string) =>
  (await http('GET', `/v1/runs/usage/summary?subject=${subject}`)).json.usage as { calls: number; by_role: object };

describe("a chat turn's ledger rows name the request's principal", () => {
  it('a message posted with an OAuth bearer: the turn model call names its subject', async () => {
    expect(
      (await http('POST', '/v1/harness/credentials', { provider: 'anthropic', api_key: KEY, base_url: model.url }))
        .status,
    ).toBe(201);
    const thread = await http('POST', '/v1/chat/threads', { title: 'who' });
    expect(thread.status).toBe(201);
    model.enqueue({ text: ['Hello.'], usage: { prompt_tokens: 40, completion_tokens: 2 } });
    const posted = await http(
      'POST',
      `/v1/chat/threads/${thread.json.id}/messages`,
      { content: 'hi' },
      await bearer('person-c'),
    );
    expect(posted.status, JSON.stringify(posted.json)).toBe(202);
    const events = await readChatStream(
      `${t.url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${posted.json.turn_id}`,
    );
    expect(events.at(-1)?.type).toBe('agent.done');
    await expect.poll(async () => (await callsOf('person-c')).calls, { timeout: 15_000 }).toBe(1);
    expect((await callsOf('person-c')).by_role).toHaveProperty('chat');
  });

  it('hostile: a body claiming a principal names no one; an expired bearer is 401 and starts no turn', async () => {
    const thread = await http('POST', '/v1/chat/threads', {});
    model.enqueue({ text: ['Hi.'], usage: { prompt_tokens: 40, completion_tokens: 2 } });
    const claimed = await http('POST', `/v1/chat/threads/${thread.json.id}/messages`, {
      content: 'hi',
      principal: { subject: 'mallory', client_id: null },
    });
    if (claimed.status === 202) {
      const events = await readChatStream(
        `${t.url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${claimed.json.turn_id}`,
      );
      expect(events.at(-1)?.type).toBe('agent.done');
    } else expect(claimed.status).toBe(422);
    expect((await callsOf('mallory')).calls).toBe(0);
    const expired = await http(
      'POST',
      `/v1/chat/threads/${thread.json.id}/messages`,
      { content: 'again' },
      await bearer('person-c', { exp: 1 }),
    );
    expect(expired.status).toBe(401);
    expect(expired.json.error.code).toBe('AUTH_REQUIRED');
    expect(
      (await http('GET', `/v1/chat/threads/${thread.json.id}`)).json.messages.filter(
        (m: { role: string }) => m.role === 'user',
      ),
    ).toHaveLength(claimed.status === 202 ? 1 : 0);
  });

  it("an assistant request's model call names the bearer's subject; a body's principal names no one", async () => {
    const project = `p-assistant-principal-${Date.now()}`;
    const item = await call(t.node.broker, T.writeDefinition, {
      project_id: project,
      item_type: 'component_selection',
      name: 'Drive motor',
      properties: { torque_nm: 1.2 },
    } as never);
    model.enqueue({ text: [JSON.stringify({ proposals: [] })], usage: { prompt_tokens: 50, completion_tokens: 3 } });
    const asked = await http(
      'POST',
      '/v1/assistant/request',
      { action: 'propose_changes', project_id: project, prompt: `Review ${item.item_ref}.` },
      await bearer('person-d'),
    );
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect((await callsOf('person-d')).calls).toBe(1);
    model.enqueue({ text: [JSON.stringify({ proposals: [] })], usage: { prompt_tokens: 50, completion_tokens: 3 } });
    const claimed = await http('POST', '/v1/assistant/request', {
      action: 'propose_changes',
      project_id: project,
      prompt: 'again',
      principal: { subject: 'mallory-2', client_id: null },
    });
    expect([200, 422]).toContain(claimed.status);
    expect((await callsOf('mallory-2')).calls).toBe(0);
    const expired = await http(
      'POST',
      '/v1/assistant/request',
      { action: 'propose_changes', project_id: project, prompt: 'x' },
      await bearer('person-d', { exp: 1 }),
    );
    expect(expired.status).toBe(401);
  });
});
