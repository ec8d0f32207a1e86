import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';

/** A dashboard served from another loopback origin may call the gateway (CORS); any other origin gets nothing. */
let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

describe('cross-origin calls from a dashboard elsewhere', () => {
  it('answers a preflight from a loopback origin with the headers a gate decision needs', async () => {
    const res = await fetch(`${t.url}/v1/approvals/gate:x/decision`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, if-match, x-service-surface',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const allowed = res.headers.get('access-control-allow-headers') ?? '';
    for (const h of ['content-type', 'if-match', 'x-service-surface']) expect(allowed).toContain(h);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('exposes ETag on a read from a loopback origin', async () => {
    const res = await fetch(`${t.url}/v1/projects`, { headers: { origin: 'http://127.0.0.1:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('etag');
  });

  it('refuses another origin and grants it no CORS header', async () => {
    for (const method of ['GET', 'OPTIONS']) {
      const res = await fetch(`${t.url}/v1/projects`, {
        method,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(res.status, method).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), method).toBeNull();
    }
  });
});
