import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareServer, startLoggedNode, type LoggedNode } from './egress-support.ts';

// Issue 27, finding 8, as a client of the gateway does it: a provider (or a proxy) that echoes the key in its error
// body put the full key into the chat stream's notify_error and the warn-level log.

// Not shaped like any token: only the stored-key redaction can find it.
const ECHOED_KEY = 'local-llm-key-QX7QX7QX7QX7';

let t: LoggedNode;
let echo: Awaited<ReturnType<typeof bareServer>>;

beforeAll(async () => {
  echo = await bareServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const message = `invalid request for key ${auth.replace(/^Bearer /, '')} (you sent Authorization: ${auth})`;
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }));
  });
  t = await startLoggedNode({ SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' });
});
afterAll(async () => {
  await echo?.close();
  await t?.stop();
});

describe('provider error text is redacted (finding 8)', () => {
  it('a provider echoing the key: not in the chat stream, not in any log line', async () => {
    const cred = { provider: 'echo-llm', api_key: ECHOED_KEY, base_url: echo.url };
    expect((await t.http('POST', '/v1/harness/credentials', cred)).status).toBe(201);
    const project = await t.http('POST', '/v1/projects', { name: 'Echo project' });
    expect(project.status).toBe(201);
    const routed = await t.http('PUT', `/v1/harness/routing/projects/${project.json.id}`, {
      routes: { chat: 'echo-llm:echo-1' },
    });
    expect(routed.status, JSON.stringify(routed.json)).toBe(200);

    const events = await t.chatTurn('hi', project.json.id);
    expect(echo.seen.map((s) => s.authorization)).toContain(`Bearer ${ECHOED_KEY}`); // the server did echo it
    const failed = events.find((e) => e.type === 'notify_error');
    expect(failed?.data.message).toMatch(/provider answered 400/);
    expect(JSON.stringify(events)).not.toContain(ECHOED_KEY);
    const logged = t.lines.join('');
    expect(logged).toMatch(/llm call failed/);
    expect(logged).not.toContain(ECHOED_KEY);
  });
});
