import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../../brokers/actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import {
  MAX_SUBSCRIPTIONS,
  MemorySessionStore,
  RedisSessionStore,
  type SessionStore,
} from '../../gateway/mcp/session-store.ts';
import { postJson } from '../support/http-raw.ts';
import { rawMcp } from '../support/mcp-raw.ts';
import { startTestNode, type TestNode } from '../support/node.ts';
import { TEST_SERVERS } from '../support/servers.ts';

const servers = inject('servers');

const SESSION = {
  protocol_version: '2025-11-25',
  requested_version: '2025-11-25',
  client_info: { name: 'subs' },
  can_elicit: false,
  transport: 'http' as const,
  log_level: 'info',
  created_at: new Date(0).toISOString(),
};

/** The subscription part of the session store port, one suite for both backends (STYLE R14). */
function describeSubscriptions(name: string, make: () => { store: SessionStore; close(): Promise<void> }) {
  describe(`session subscriptions: ${name}`, () => {
    let store: SessionStore;
    let close: () => Promise<void>;
    beforeAll(() => ({ store, close } = make()));
    afterAll(() => close());

    it('keeps a session’s subscriptions once each, drops one on unsubscribe, all of them with the session', async () => {
      const s = await store.create(SESSION);
      expect(await store.subscribe(s.id, 'service://knowledge/sources')).toBe(true);
      expect(await store.subscribe(s.id, 'service://knowledge/sources')).toBe(true);
      expect(await store.subscribe(s.id, 'test://watched-resource')).toBe(true);
      expect((await store.subscriptions(s.id)).sort()).toEqual([
        'service://knowledge/sources',
        'test://watched-resource',
      ]);
      await store.unsubscribe(s.id, 'test://watched-resource');
      expect(await store.subscriptions(s.id)).toEqual(['service://knowledge/sources']);
      await store.update({ ...s, log_level: 'debug' });
      expect(await store.subscriptions(s.id)).toEqual(['service://knowledge/sources']);
      expect(await store.delete(s.id)).toBe(true);
      expect(await store.subscriptions(s.id)).toEqual([]);
      expect(await store.subscribe(s.id, 'service://knowledge/sources')).toBe(false);
    });

    it(`refuses a subscription past ${MAX_SUBSCRIPTIONS} per session, but not one it already holds`, async () => {
      const s = await store.create(SESSION);
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) expect(await store.subscribe(s.id, `test://r/${i}`)).toBe(true);
      expect(await store.subscribe(s.id, 'test://r/one-more')).toBe(false);
      expect(await store.subscribe(s.id, 'test://r/0')).toBe(true);
      await store.delete(s.id);
    });
  });
}

describeSubscriptions('memory', () => ({ store: new MemorySessionStore(), close: async () => undefined }));

describe.runIf(servers.redis)('on Redis', () => {
  describeSubscriptions('Redis', () => {
    const redis = new Redis(TEST_SERVERS.redisUrl);
    return {
      store: new RedisSessionStore(redis, `t-${crypto.randomBytes(4).toString('hex')}`),
      close: async () => void redis.disconnect(),
    };
  });
});

/** Reads an SSE response until a `notifications/resources/updated` for `uri` arrives. */
async function untilUpdated(res: Response, uri: string): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before the update; it carried:\n${text}`);
    text += decoder.decode(value, { stream: true });
    const hit = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as { method?: string; params?: { uri?: string } })
      .some((m) => m.method === 'notifications/resources/updated' && m.params?.uri === uri);
    if (hit) return void (await reader.cancel());
  }
}

/** Two gateway replicas on one bus and one Redis: the replica holding the GET stream delivers, whoever took the subscribe. */
describe.runIf(servers.redis && servers.nats)('MCP subscriptions across gateway replicas', () => {
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
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('subscribes on one replica and hears the update on the stream held by the other', async () => {
    // A broadcast reaches the nodes the sender knows listen: wait until the twin's node has heard of B's gateway.
    const bNode = b.node.broker.nodeID;
    await expect
      .poll(
        () =>
          a.node.broker.registry
            .getServiceList({ onlyAvailable: true })
            .some((s) => s.name === 'gateway' && s.nodeID === bNode),
        { timeout: 60_000 },
      )
      .toBe(true);
    const p = (await postJson(`${a.url}/v1/projects`, { name: 'replicated subscriptions' })).body.id as string;
    const item = await call(a.node.broker, TwinActions.writeDefinition, {
      project_id: p,
      item_type: 'objective',
      name: 'Deflection',
    });
    const uri = `service://projects/${p}/work-products/${item.item_key}`;
    const { sessionId } = await rawMcp(a.url).initialize();
    const h = { 'mcp-session-id': sessionId };
    const stream = await fetch(`${b.url}/mcp`, { headers: { accept: 'text/event-stream', ...h } });
    expect(stream.status).toBe(200);
    const sub = await rawMcp(a.url).post({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri } }, h);
    expect(sub.json).toMatchObject({ id: 1, result: {} });
    const heard = untilUpdated(stream, uri);
    await call(a.node.broker, TwinActions.writeDefinition, {
      project_id: p,
      item_type: 'objective',
      name: 'Deflection',
      item_key: item.item_key,
      properties: { statement: 'under 0.2 mm' },
    });
    await heard;
  }, 60_000);
});
