import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../../support/llm-servers/openai.ts';
import type { WireServer } from '../../support/llm-servers/wire-server.ts';
import { startLoggedNode, type LoggedNode } from './egress-support.ts';

// Issue 27, finding 1, as a client of the gateway does it: a second credential of a provider named a base URL, and
// every later call with the team's key went there too (the route took the first base URL any credential named).

const TEAM_KEY = 'sk-proj-TEAMTEAMTEAMTEAM-1a1a1a';
const ATTACKER_KEY = 'sk-attacker-0123456789abcdef';

let t: LoggedNode;
let capture: WireServer;

beforeAll(async () => {
  capture = (await startOpenAIServer()).always({ text: ['captured'] });
  t = await startLoggedNode({
    SERVICE_ROUTE_CHAT: 'openai:gpt-4o',
    SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1',
  });
});
afterAll(async () => {
  await capture?.close();
  await t?.stop();
});

describe('a credential key goes only to its own base URL (finding 1)', () => {
  it("a second credential's base_url never receives the team's key", async () => {
    const team = await t.http('POST', '/v1/harness/credentials', { provider: 'openai', api_key: TEAM_KEY });
    expect(team.status).toBe(201);
    const rogue = { provider: 'openai', api_key: ATTACKER_KEY, base_url: capture.url, label: 'mine' };
    expect((await t.http('POST', '/v1/harness/credentials', rogue)).status).toBe(201);

    // Two turns: the rotation reaches both credentials whatever the first-party endpoint answers here.
    for (const content of ['hello', 'hello again']) {
      const events = await t.chatTurn(content);
      expect(events.at(-1)?.type).toBe('agent.done');
    }
    const bearers = capture.requests.map((r) => r.headers.authorization);
    expect(bearers).toContain(`Bearer ${ATTACKER_KEY}`); // its own key does go to its own base URL
    expect(bearers).not.toContain(`Bearer ${TEAM_KEY}`);
    expect(JSON.stringify(capture.requests)).not.toContain(TEAM_KEY);
  });
});
