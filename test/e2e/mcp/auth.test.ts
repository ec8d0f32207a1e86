import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkApiKey } from '../../../gateway/mcp/auth.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { rawMcp } from '../../support/mcp-raw.ts';

const KEY = 'k-0123456789abcdef';

describe('API-key check (constant time, no trimming)', () => {
  it('passes the exact key and refuses everything else with the reason', () => {
    expect(checkApiKey(undefined, undefined)).toEqual({ ok: true });
    expect(checkApiKey(KEY, `Bearer ${KEY}`)).toEqual({ ok: true });
    expect(checkApiKey(KEY, undefined)).toEqual({ ok: false, reason: 'missing_key' });
    expect(checkApiKey(KEY, '')).toEqual({ ok: false, reason: 'missing_key' });
    expect(checkApiKey(KEY, `Bearer ${KEY}\n`)).toEqual({ ok: false, reason: 'mismatch' });
    expect(checkApiKey(KEY, `Bearer ${KEY.slice(0, -1)}`)).toEqual({ ok: false, reason: 'mismatch' });
    expect(checkApiKey(KEY, `Basic ${KEY}`)).toEqual({ ok: false, reason: 'mismatch' });
    expect(checkApiKey(`${KEY}\n`, `Bearer ${KEY}`)).toEqual({ ok: false, reason: 'mismatch' });
  });
});

describe('SERVICE_MCP_API_KEY on the transports', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ env: { SERVICE_MCP_API_KEY: KEY } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers /mcp without the header 401 missing_key and with a wrong key 401 mismatch', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const none = await rawMcp(t.url).post(ping);
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: 'auth_error', reason: 'missing_key' });
    const wrong = await rawMcp(t.url, { authorization: 'Bearer nope' }).post(ping);
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: 'auth_error', reason: 'mismatch' });
    const right = await rawMcp(t.url, { authorization: `Bearer ${KEY}` }).post(ping);
    expect(right.status).toBe(200);
    expect(right.json.result).toEqual({});
  });

  it('protects /mcp/sse too and leaves /health open, reporting api_key', async () => {
    const sse = await fetch(
      `${t.url}/mcp/sse?request=${encodeURIComponent(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))}`,
    );
    expect(sse.status).toBe(401);
    const health = await fetch(`${t.url}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { auth: string }).auth).toBe('api_key');
  });
});
