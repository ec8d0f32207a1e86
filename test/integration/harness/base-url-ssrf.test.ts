import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareServer, startLoggedNode, type LoggedNode } from './egress-support.ts';

// Issue 27, finding 7, as a client of the gateway does it: a credential's base_url sent the harness to any address
// (the service's own network, a cloud metadata endpoint), and the body of whatever answered came back in the chat
// stream's notify_error. A private, loopback or link-local base_url now needs SERVICE_HARNESS_PRIVATE_BASE_URLS.

const SECRET_PAGE = 'INTRANET-ONLY-PAGE-7f3c9a';
const KEY = 'sk-ssrf-test-0123456789abcdef';

let intranet: Awaited<ReturnType<typeof bareServer>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-ssrf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  intranet = await bareServer((_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end(`<html><body>${SECRET_PAGE}</body></html>`),
  );
});
afterAll(() => intranet?.close());

/** Routes a new project's chat to `provider` and runs one turn in it. */
async function turnOn(t: LoggedNode, provider: string) {
  const project = await t.http('POST', '/v1/projects', { name: `SSRF ${provider}` });
  const routed = await t.http('PUT', `/v1/harness/routing/projects/${project.json.id}`, {
    routes: { chat: `${provider}:m-1` },
  });
  expect(routed.status, JSON.stringify(routed.json)).toBe(200);
  return t.chatTurn('hi', project.json.id);
}

describe('without the allow-list', () => {
  let t: LoggedNode;
  beforeAll(async () => {
    t = await startLoggedNode({});
  });
  afterAll(() => t?.stop());

  it.each([
    ['loopback', () => intranet.url],
    ['localhost (a name that resolves to loopback)', () => `http://localhost:${intranet.port}/v1`],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data'],
    ['private 10/8', () => 'http://10.1.2.3:8080/v1'],
    ['IPv6 loopback', () => `http://[::1]:${intranet.port}/v1`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${intranet.port}/v1`],
    ['decimal IPv4', () => `http://2130706433:${intranet.port}/v1`],
    ['0.0.0.0', () => `http://0.0.0.0:${intranet.port}/v1`],
  ])('a credential at %s is refused (422 naming the variable), nothing reaches it', async (_name, url) => {
    const r = await t.http('POST', '/v1/harness/credentials', { provider: 'inside', api_key: KEY, base_url: url() });
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(JSON.stringify(r.json)).toContain('SERVICE_HARNESS_PRIVATE_BASE_URLS');
    expect(JSON.stringify(r.json)).not.toContain(KEY);
    expect(intranet.seen).toEqual([]);
  });
});

describe('a credentials file naming a private base_url (no allow-list)', () => {
  let t: LoggedNode;
  beforeAll(async () => {
    const file = path.join(dir, 'credentials.json');
    const cred = {
      id: 'cred_file_1',
      provider: 'inside',
      label: null,
      api_key: KEY,
      base_url: intranet.url,
      status: 'healthy',
      created_at: '2026-11-28T00:00:00.000Z',
      dead_at: null,
    };
    // The second by name: refused by the connection's own DNS lookup (a name that resolves to loopback later).
    const byName = {
      ...cred,
      id: 'cred_file_2',
      provider: 'inside-name',
      base_url: `http://localhost:${intranet.port}/v1`,
    };
    fs.writeFileSync(file, JSON.stringify({ version: 1, credentials: [cred, byName] }), { mode: 0o600 });
    t = await startLoggedNode({ SERVICE_DATA_DIR: path.join(dir, 'data'), SERVICE_CREDENTIALS_PATH: file });
  });
  afterAll(() => t?.stop());

  it.each(['inside', 'inside-name'])(
    'is refused at connection time (%s): nothing reaches the address, the turn says why',
    async (provider) => {
      const before = intranet.seen.length;
      const events = await turnOn(t, provider);
      expect(intranet.seen.length).toBe(before);
      const failed = events.find((e) => e.type === 'notify_error');
      expect(failed?.data.message).toMatch(/not sent: .*SERVICE_HARNESS_PRIVATE_BASE_URLS/);
    },
  );
});

describe('with the host allow-listed', () => {
  let t: LoggedNode;
  beforeAll(async () => {
    t = await startLoggedNode({ SERVICE_HARNESS_PRIVATE_BASE_URLS: `localhost:1, 127.0.0.1:${intranet.port}` });
  });
  afterAll(() => t?.stop());

  it('host:port allows that port only', async () => {
    const other = await t.http('POST', '/v1/harness/credentials', {
      provider: 'other-port',
      api_key: KEY,
      base_url: `http://127.0.0.1:${intranet.port + 1}/v1`,
    });
    expect(other.status).toBe(422);
    const named = await t.http('POST', '/v1/harness/credentials', {
      provider: 'by-name',
      api_key: KEY,
      base_url: `http://localhost:${intranet.port}/v1`,
    });
    expect(named.status).toBe(422); // localhost:1 is allowed, not this port
  });

  it("is stored and called, and a page that is not a provider's error is not reflected", async () => {
    const r = await t.http('POST', '/v1/harness/credentials', {
      provider: 'inside',
      api_key: KEY,
      base_url: intranet.url,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const events = await turnOn(t, 'inside');
    expect(intranet.seen.length).toBeGreaterThan(0);
    const failed = events.find((e) => e.type === 'notify_error');
    expect(failed?.data.message).toMatch(/provider answered 404/);
    expect(JSON.stringify(events)).not.toContain(SECRET_PAGE);
    expect(t.lines.join('')).not.toContain(SECRET_PAGE);
  });
});
