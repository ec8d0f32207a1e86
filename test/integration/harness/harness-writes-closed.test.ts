import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoggedNode, type LoggedNode } from './egress-support.ts';

// Issue 27, finding 1 (what to build): with SERVICE_HARNESS_ADMIN_TOKEN unset (the default), anyone reaching the
// gateway could store credentials and change the routes. Those write routes are now closed when the gateway listens
// beyond loopback and no admin token is set; the start says so in a warn line and /health in harness_writes.

const KEY = 'sk-closed-test-0123456789abc';
const WRITES = [
  ['POST', '/v1/harness/credentials', { provider: 'openai', api_key: KEY }],
  ['PUT', '/v1/harness/selection', { provider: 'openai', model: 'gpt-4o' }],
  ['PUT', '/v1/harness/routing/projects/p-1', { routes: { chat: 'openai:gpt-4o' } }],
] as const;

describe('beyond loopback without an admin token', () => {
  let t: LoggedNode;
  beforeAll(async () => {
    t = await startLoggedNode({ SERVICE_HOST: '0.0.0.0' }, 'gateway,harness');
  });
  afterAll(() => t?.stop());

  it.each(WRITES)('%s %s is refused (403, closed), nothing stored', async (method, p, body) => {
    const r = await t.http(method, p, body);
    expect(r.status, JSON.stringify(r.json)).toBe(403);
    expect(r.json.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'harness_writes_closed' } });
    expect(r.json.error.message).toContain('SERVICE_HARNESS_ADMIN_TOKEN');
    const providers = await t.http('GET', '/v1/harness/providers');
    expect(providers.status).toBe(200); // reads stay open
    expect(JSON.stringify(providers.json)).not.toContain('"configured":true');
  });

  it('says so at start (warn) and in /health', async () => {
    const warned = t.lines.map((l) => JSON.parse(l)).find((l) => l.event === 'harness_writes_closed');
    expect(warned).toMatchObject({ level: 40, host: '0.0.0.0' });
    const health = await t.http('GET', '/health');
    expect(health.json.harness_writes).toMatchObject({ status: 'closed' });
    expect(health.json.harness_writes.detail).toContain('SERVICE_HARNESS_ADMIN_TOKEN');
  });
});

describe('beyond loopback with an admin token', () => {
  let t: LoggedNode;
  beforeAll(async () => {
    t = await startLoggedNode(
      { SERVICE_HOST: '0.0.0.0', SERVICE_HARNESS_ADMIN_TOKEN: 'admin-0123456789abcdef' },
      'gateway,harness',
    );
  });
  afterAll(() => t?.stop());

  it('the token opens them; /health says admin_token', async () => {
    const admin = { 'X-Service-Admin-Token': 'admin-0123456789abcdef' };
    const r = await t.http('POST', '/v1/harness/credentials', { provider: 'openai', api_key: KEY }, admin);
    expect(r.status).toBe(201);
    expect((await t.http('GET', '/health')).json.harness_writes).toMatchObject({ status: 'admin_token' });
  });
});

describe('on loopback without a token (the local default)', () => {
  let t: LoggedNode;
  beforeAll(async () => {
    t = await startLoggedNode({}, 'gateway,harness');
  });
  afterAll(() => t?.stop());

  it('stays open, and /health says so', async () => {
    const r = await t.http('POST', '/v1/harness/credentials', { provider: 'openai', api_key: KEY });
    expect(r.status).toBe(201);
    expect((await t.http('GET', '/health')).json.harness_writes).toMatchObject({ status: 'open' });
  });
});
