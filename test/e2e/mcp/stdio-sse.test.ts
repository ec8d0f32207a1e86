import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { SERVICE_BIN } from '../../support/spawn.ts';

describe('stdio: the SDK stdio client spawning the launcher', () => {
  it('initializes, lists, and runs a write without a hold (stdio is exempt by default)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVICE_BIN, '--transport', 'stdio'],
      env: { ...(process.env as Record<string, string>), SERVICE_DATA_DIR: 'memory://', SERVICE_LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toContain('project.create');
    const created = await client.callTool({ name: 'project.create', arguments: { name: 'over stdio' } });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { id: string }).id;
    const got = await client.callTool({ name: 'project.get', arguments: { project_id: id } });
    expect(got.structuredContent).toMatchObject({ id, name: 'over stdio' });
    await client.close();
  }, 60_000);
});

describe('the SSE transports', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers GET /mcp/sse?request= with event: response blocks and one event: done', async () => {
    const request = encodeURIComponent(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'r1',
        method: 'tool/call',
        params: { tool_id: 'project.list', arguments: {} },
      }),
    );
    const res = await fetch(`${t.url}/mcp/sse?request=${request}`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1],
        data: /^data: (.*)$/m.exec(block)?.[1],
      }));
    expect(events.map((e) => e.event)).toEqual(['response', 'done']);
    expect(JSON.parse(events[0].data!)).toMatchObject({
      id: 'r1',
      result: { status: 'success', tool_id: 'project.list' },
    });
  });

  it('reports a parse error on the SSE transport as a response event', async () => {
    const res = await fetch(`${t.url}/mcp/sse?request=${encodeURIComponent('{nope')}`);
    const text = await res.text();
    expect(text).toContain('event: response');
    expect(text).toContain('-32700');
    expect(text).toContain('event: done');
  });

  it('serves the SDK SSE client (HTTP+SSE transport) on the same path', async () => {
    const client = new Client({ name: 'sse-test', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${t.url}/mcp/sse`)));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(6);
    const res = await client.callTool({ name: 'project.list', arguments: {} });
    expect(res.structuredContent).toMatchObject({ total: expect.any(Number) });
    await client.close();
  });
});
