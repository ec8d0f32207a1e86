import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestNode, type TestNode } from '../support/node.ts';
import { TEST_SERVERS } from '../support/servers.ts';

/** With SERVICE_REDIS_URL set the broker caches through Redis, and writes evict the cached read. */
describe.runIf(inject('servers').redis)('Redis cacher', () => {
  let t: TestNode;
  let redis: Redis;
  const prefix = `t${crypto.randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    redis = new Redis(TEST_SERVERS.redisUrl);
    t = await startTestNode({ env: { SERVICE_REDIS_URL: TEST_SERVERS.redisUrl, SERVICE_NAMESPACE: prefix } });
  });
  afterAll(async () => {
    await t.stop();
    redis.disconnect();
  });

  it('stores a project read in Redis and evicts it on rename', async () => {
    expect(t.node.broker.cacher?.constructor.name).toBe('RedisCacher');
    const res = await fetch(`${t.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cached' }),
    });
    const { id } = (await res.json()) as { id: string };
    await fetch(`${t.url}/v1/projects/${id}`);
    const keys = await redis.keys(`*projects.get:${id}`);
    expect(keys).toHaveLength(1);

    await fetch(`${t.url}/v1/projects/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'renamed' }),
    });
    expect(await redis.keys(`*projects.get:${id}`)).toHaveLength(0);
    expect(await (await fetch(`${t.url}/v1/projects/${id}`)).json()).toMatchObject({ name: 'renamed' });
  });
});
