import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChatStream } from '../../support/chat-stream.ts';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

// SERVICE_CHAT_TWIN_WRITES=0 and SERVICE_CHAT_PROJECT_WRITES=0 make chat read-only (SPEC chat rule 6): the model is
// not offered the twin's or the projects' write tools; reads stay.
describe('a read-only chat', () => {
  let t: TestNode;
  let model: WireServer;
  beforeAll(async () => {
    model = await startOpenAIServer();
    t = await startTestNode({
      roles: 'gateway,harness,chat,tools,projects,adapter:project,twin,adapter:twin',
      env: {
        SERVICE_ROUTE_CHAT: 'local-llm:llama3.1:8b',
        SERVICE_CHAT_TWIN_WRITES: '0',
        SERVICE_CHAT_PROJECT_WRITES: '0',
        SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    await model?.close();
    await t?.stop();
  });

  it('offers the model no write tool of the twin or the projects', async () => {
    const post = (p: string, body: unknown) =>
      fetch(`${t.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }));
    expect(
      (await post('/v1/harness/credentials', { provider: 'local-llm', api_key: 'k', base_url: model.url })).status,
    ).toBe(201);
    const thread = await post('/v1/chat/threads', {});
    model.enqueue({ text: ['Read only.'] });
    const posted = await post(`/v1/chat/threads/${thread.json.id}/messages`, { content: 'What can you do?' });
    await readChatStream(`${t.url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${posted.json.turn_id}`);
    const offered = (model.last!.body.tools as { function: { name: string } }[]).map((o) => o.function.name);
    expect(offered).toEqual(expect.arrayContaining(['project__list', 'project__get', 'twin__get_node']));
    for (const write of ['project__create', 'twin__record_decision', 'twin__commit_geometry', 'twin__propose_change']) {
      expect(offered).not.toContain(write);
    }
  });
});
