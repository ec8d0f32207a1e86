import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestNode, type TestNode } from '../support/node.ts';
import { rawMcp } from '../support/mcp-raw.ts';
import { TEST_SERVERS } from '../support/servers.ts';

const servers = inject('servers');

/** With SERVICE_REDIS_URL set, MCP sessions live in Redis: two gateway replicas serve one session. */
describe.runIf(servers.redis && servers.nats)('MCP sessions shared through Redis', () => {
  let a: TestNode;
  let b: TestNode;
  beforeAll(async () => {
    const env = {
      SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
      SERVICE_REDIS_URL: TEST_SERVERS.redisUrl,
      SERVICE_NAMESPACE: `t-${crypto.randomBytes(4).toString('hex')}`,
    };
    a = await startTestNode({ roles: 'all', env });
    b = await startTestNode({ roles: 'gateway', env });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('initializes on one replica and serves the same session on the other; DELETE ends it on both', async () => {
    const { sessionId } = await rawMcp(a.url).initialize(
      '2025-06-18',
      { elicitation: {} },
      { name: 'replicated', version: '1' },
    );
    const h = { 'mcp-session-id': sessionId };
    await expect
      .poll(
        async () =>
          (await rawMcp(b.url).post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, h)).json?.result?.tools?.length ??
          0,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    const health = (await rawMcp(b.url).post({ jsonrpc: '2.0', id: 2, method: 'health/check' }, h)).json.result;
    expect(health.client).toMatchObject({
      name: 'replicated',
      can_elicit: true,
      protocol_skew: { requested: '2025-06-18' },
    });

    const del = await fetch(`${b.url}/mcp`, { method: 'DELETE', headers: h });
    expect(del.status).toBe(204);
    expect((await rawMcp(a.url).post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, h)).status).toBe(404);
  }, 60_000);
});
