import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';
import { rawMcp } from '../../support/mcp-raw.ts';

let t: TestNode;
let site: http.Server;
let siteUrl: string;
let slowClosed: Promise<void>;
let markSlowClosed: () => void;
let slowOpened: Promise<void>;
let markSlowOpened: () => void;

beforeAll(async () => {
  slowClosed = new Promise((r) => (markSlowClosed = r));
  slowOpened = new Promise((r) => (markSlowOpened = r));
  site = http.createServer((req, res) => {
    if (req.url === '/big') {
      // 512 KiB in 16 chunks with a declared length: the fetch reports progress as bytes arrive.
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(16 * 32768) });
      let i = 0;
      const tick = () => {
        if (i++ === 16) return res.end();
        res.write('x'.repeat(32768));
        setTimeout(tick, 15);
      };
      tick();
      return;
    }
    if (req.url === '/slow') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('started');
      req.socket.once('close', () => markSlowClosed());
      markSlowOpened();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

async function connect() {
  const client = new Client({ name: 'long-calls', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`));
  await client.connect(transport);
  return client;
}

describe('long calls over Streamable HTTP with the SDK client', () => {
  it("sends notifications/progress on the call's own stream when the call carries a progress token", async () => {
    const client = await connect();
    const seen: number[] = [];
    const res = await client.callTool({ name: 'web.fetch', arguments: { url: `${siteUrl}/big` } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as { bytes: number }).bytes).toBe(16 * 32768);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    await client.close();
  });

  it('stops the work when the client cancels its call', async () => {
    const client = await connect();
    const controller = new AbortController();
    const pending = client.callTool(
      { name: 'web.fetch', arguments: { url: `${siteUrl}/slow`, timeout_seconds: 60 } },
      undefined,
      { signal: controller.signal },
    );
    // Cancel once the work is under way: the slow site has the adapter's request.
    await slowOpened;
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    // The server aborted the underlying request: the slow site saw its connection close well before the 60 s limit.
    await slowClosed;
    await client.close();
  });

  it('answers a legacy call past its timeout with TOOL_TIMEOUT and the spec message', async () => {
    const r = await rawMcp(t.url).post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tool/call',
        params: { tool_id: 'web.fetch', arguments: { url: `${siteUrl}/slow` }, timeout_seconds: 1 },
      },
      { accept: 'application/json' },
    );
    expect(r.json.error).toMatchObject({
      code: -32006,
      message: 'tool web.fetch exceeded its timeout of 1 seconds',
      data: { error_type: 'TOOL_TIMEOUT', tool_id: 'web.fetch' },
    });
  });

  it('lists and reads the knowledge sources as MCP resources', async () => {
    const ingested = await okData(
      callTool(t.node.broker, 'knowledge.ingest', {
        title: 'Beam notes',
        text: 'A cantilever beam carries its load to a single support.',
      }),
    );
    const id = ingested.source.id as string;
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(['service://knowledge/sources', `service://knowledge/sources/${id}`]),
    );
    const list = await client.readResource({ uri: 'service://knowledge/sources' });
    expect(JSON.parse((list.contents[0] as { text: string }).text).sources.map((s: { id: string }) => s.id)).toContain(
      id,
    );
    const one = await client.readResource({ uri: `service://knowledge/sources/${id}` });
    expect((one.contents[0] as { text: string }).text).toContain('cantilever beam');
    await expect(client.readResource({ uri: 'service://knowledge/sources/nope' })).rejects.toMatchObject({
      code: -32002,
    });
    await client.close();
  });

  it('finds tools by words with tools.search', async () => {
    const client = await connect();
    const res = await client.callTool({ name: 'tools.search', arguments: { query: 'fetch web page' } });
    expect((res.structuredContent as { tools: { tool_id: string }[] }).tools[0].tool_id).toBe('web.fetch');
    await client.close();
  });
});
