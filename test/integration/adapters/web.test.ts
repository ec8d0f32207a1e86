import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolResultSchema, type ToolResult } from '../../../contracts/tool-result.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { invokeViaRegistry, recordToolProgress, type ToolProgress } from '../../support/tools.ts';

const PAGE = `<!doctype html><html><head><title>Beam &amp; column tables</title>
<style>body { color: red }</style><script>var hidden = "<p>not text</p>";</script></head>
<body><h1>Beam tables</h1><p>Section modulus of an <b>IPE&nbsp;200</b> is 194&#160;cm&sup3;.</p>
<!-- a comment --><ul><li>E = 210 GPa</li><li>&lt;escaped tag&gt; stays text</li></ul><a href="/x" title="a>b">link</a></body></html>`;
const BIG = 3_000_000;

/** The local web: a page, a big body, a slow and a stalling endpoint, a redirect, binary, latin-1, and a fake SearxNG. */
const requests = new Set<string>();
const closed = new Set<string>();
const searches: URLSearchParams[] = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://local');
  const id = url.searchParams.get('id') ?? '';
  requests.add(id);
  req.socket.on('close', () => closed.add(id));
  res.on('error', () => undefined);
  switch (url.pathname) {
    case '/page':
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    case '/big':
      return res.writeHead(200, { 'content-type': 'text/plain', 'content-length': BIG }).end(Buffer.alloc(BIG, 'a'));
    case '/exact':
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pad: 'x'.repeat(990) }));
    case '/slow':
      return; // never answers
    case '/stall':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 1000 });
      return res.write('0123456789'); // and never finishes
    case '/redirect':
      return res.writeHead(302, { location: '/page' }).end();
    case '/bin':
      return res
        .writeHead(200, { 'content-type': 'application/octet-stream' })
        .end(Buffer.from([0, 1, 2, 253, 254, 255]));
    case '/latin1':
      return res
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    case '/search': {
      searches.push(url.searchParams);
      const q = url.searchParams.get('q') ?? '';
      if (q === 'explode') return res.writeHead(500).end('engine down');
      if (url.searchParams.get('format') !== 'json') return res.writeHead(403).end('format not allowed');
      const results = Array.from({ length: 30 }, (_, i) => ({
        title: `${q} result ${i}`,
        url: `https://example.org/${i}`,
        content: `about ${q}`,
        engine: 'fake',
      }));
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ query: q, number_of_results: 30, results }));
    }
    default:
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  }
});

let base = '';
let closedPort = 0;
let t: TestNode;
let unconfigured: TestNode;
const progress: ToolProgress[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  t = await startTestNode({
    roles: 'tools,adapter:web',
    env: { SERVICE_WEB_SEARCH_URL: `${base}/search?engines=fake` },
  });
  await recordToolProgress(t.node.broker, progress);
  unconfigured = await startTestNode({ roles: 'tools,adapter:web' });
});
afterAll(async () => {
  await t?.stop();
  await unconfigured?.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function invoke(
  tool: string,
  args: Record<string, unknown>,
  callId = crypto.randomUUID(),
  node = t,
): Promise<ToolResult> {
  // Through the registry: arguments are validated there, once, and defaults filled in (ISSUE 13 point 3).
  const extra = { call_id: callId, timeout_seconds: 20, progress_node: node.node.broker.nodeID };
  return ToolResultSchema.parse(
    await invokeViaRegistry(node.node.broker, `web.${tool}`, args, { kind: 'remote', transport: 'http' }, extra),
  );
}
const data = (r: ToolResult) => {
  if (r.status !== 'success') throw new Error(`call failed: ${JSON.stringify(r.error)}`);
  return r.data;
};

describe('web.fetch', () => {
  it('fetches an HTML page: readable text, markup and title', async () => {
    const page = data(await invoke('fetch', { url: `${base}/redirect` }));
    expect(page).toMatchObject({
      url: `${base}/redirect`,
      final_url: `${base}/page`,
      status: 200,
      content_type: 'text/html; charset=utf-8',
      truncated: false,
      encoding: 'text',
      title: 'Beam & column tables',
      html: PAGE,
    });
    expect(page.bytes).toBe(Buffer.byteLength(PAGE));
    const text = String(page.text);
    expect(text).toContain('Section modulus of an IPE 200 is 194 cm³.');
    expect(text).toContain('Beam tables\n\nSection modulus');
    expect(text).toContain('E = 210 GPa\n<escaped tag> stays text\n\nlink');
    for (const gone of ['color: red', 'not text', 'hidden', 'a comment', '<b>', 'href'])
      expect(text).not.toContain(gone);
  });

  it('stops at max_bytes and says the body was truncated, reporting progress on the way', async () => {
    const callId = crypto.randomUUID();
    const big = data(await invoke('fetch', { url: `${base}/big`, max_bytes: 300_000 }, callId));
    expect(big).toMatchObject({ status: 200, bytes: 300_000, truncated: true, content_length: BIG, encoding: 'text' });
    expect(String(big.text)).toBe('a'.repeat(300_000));
    const mine = progress.filter((p) => p.call_id === callId);
    expect(
      mine.some((p) => /^received \d+ of 3000000 bytes$/.test(p.message) && p.progress > 0 && p.progress < 1),
    ).toBe(true);
    expect(mine.at(-1)).toMatchObject({ progress: 1, message: 'received 300000 bytes (truncated)' });

    const exact = data(await invoke('fetch', { url: `${base}/exact`, max_bytes: 1000 }));
    expect(exact).toMatchObject({ bytes: 1000, truncated: false, content_type: 'application/json' });
    expect(JSON.parse(String(exact.text)).pad).toHaveLength(990);
    expect(data(await invoke('fetch', { url: `${base}/exact`, max_bytes: 999 }))).toMatchObject({
      bytes: 999,
      truncated: true,
    });
  });

  it('returns binary bodies as base64, decodes declared charsets, and passes HTTP errors through', async () => {
    expect(data(await invoke('fetch', { url: `${base}/bin` }))).toMatchObject({
      encoding: 'base64',
      base64: Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64'),
      bytes: 6,
    });
    expect(data(await invoke('fetch', { url: `${base}/latin1` }))).toMatchObject({
      encoding: 'text',
      text: 'café',
      bytes: 4,
    });
    expect(data(await invoke('fetch', { url: `${base}/missing` }))).toMatchObject({
      status: 404,
      text: 'no such page',
    });
  });

  it('refuses schemes other than http and https as invalid arguments', async () => {
    for (const url of ['ftp://example.com/file', 'file:///etc/passwd', 'not a url']) {
      const r = await invoke('fetch', { url });
      expect(r, url).toMatchObject({ status: 'error', error: { type: 'INVALID_ARGUMENTS' } });
    }
  });

  it('says why a host could not be reached: connection refused, DNS failure, no response', async () => {
    const refused = await invoke('fetch', { url: `http://127.0.0.1:${closedPort}/` });
    expect(refused.status === 'error' && refused.error).toMatchObject({
      type: 'TOOL_EXECUTION_ERROR',
      message: `host 127.0.0.1:${closedPort} could not be reached: connection refused`,
    });
    const dns = await invoke('fetch', { url: 'http://no-such-host.invalid/' });
    expect(dns.status === 'error' && dns.error.message).toMatch(
      /^host no-such-host\.invalid could not be reached: DNS lookup of no-such-host\.invalid failed/,
    );
    const id = crypto.randomUUID();
    const slow = await invoke('fetch', { url: `${base}/slow?id=${id}`, timeout_seconds: 1 });
    expect(slow.status === 'error' && slow.error.message).toBe(
      `host ${new URL(base).host} could not be reached: no response within 1 seconds`,
    );
    await expect.poll(() => closed.has(id)).toBe(true);
  });

  it('fails a body that stops arriving within the timeout', async () => {
    const r = await invoke('fetch', { url: `${base}/stall?id=${crypto.randomUUID()}`, timeout_seconds: 1 });
    expect(r.status === 'error' && r.error.message).toMatch(/no complete body within 1 seconds after 10 bytes/);
  });

  it('aborts the request when the call is cancelled: the server sees the connection close', async () => {
    const callId = crypto.randomUUID();
    const pending = invoke('fetch', { url: `${base}/slow?id=${callId}`, timeout_seconds: 60 }, callId);
    await expect.poll(() => requests.has(callId)).toBe(true);
    expect(closed.has(callId)).toBe(false);
    await t.node.broker.broadcast('toolcall.cancel', { call_id: callId, reason: 'user pressed stop' });
    expect(await pending).toMatchObject({
      status: 'error',
      error: { type: 'CANCELLED', message: 'call cancelled: user pressed stop' },
    });
    await expect.poll(() => closed.has(callId)).toBe(true);
  });
});

describe('web.search', () => {
  it('queries the configured SearxNG-compatible endpoint as JSON and keeps limit results', async () => {
    const res = data(await invoke('search', { query: 'steel yield strength', limit: 5 }));
    expect(res.query).toBe('steel yield strength');
    expect(res.results).toHaveLength(5);
    expect((res.results as unknown[])[0]).toEqual({
      title: 'steel yield strength result 0',
      url: 'https://example.org/0',
      snippet: 'about steel yield strength',
    });
    const sent = searches.at(-1)!;
    expect(Object.fromEntries(sent)).toEqual({ engines: 'fake', q: 'steel yield strength', format: 'json' });
  });

  it('fails naming SERVICE_WEB_SEARCH_URL when no endpoint is configured, and reports endpoint failures', async () => {
    const r = await invoke('search', { query: 'anything' }, crypto.randomUUID(), unconfigured);
    expect(r.status === 'error' && r.error).toMatchObject({
      type: 'TOOL_EXECUTION_ERROR',
      message: expect.stringContaining('SERVICE_WEB_SEARCH_URL'),
    });
    const health = await unconfigured.node.broker.call('adapters.web.health', {});
    expect(health).toMatchObject({ status: 'degraded', message: expect.stringContaining('SERVICE_WEB_SEARCH_URL') });
    const down = await invoke('search', { query: 'explode' });
    expect(down.status === 'error' && down.error.message).toMatch(/answered HTTP 500/);
  });
});
