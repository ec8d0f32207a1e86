import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

async function connect(profile?: string) {
  const url = new URL(`${t.url}/mcp${profile ? `?profile=${profile}` : ''}`);
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'sdk-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, transport };
}

const errorOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
};

describe('the official SDK client over Streamable HTTP', () => {
  it('initializes on the pinned revision and lists tools with their annotations', async () => {
    const { client } = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'service' });
    const { tools, _meta } = await client.listTools();
    const names = tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['project.get', 'project.create', 'tools.search']));
    expect(_meta).toBeUndefined();
    const get = tools.find((x) => x.name === 'project.get')!;
    expect(get.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(get.inputSchema).toMatchObject({ type: 'object', required: ['project_id'] });
    for (const tool of tools) expect(tool.description?.length, tool.name).toBeGreaterThan(10);
    await client.close();
  });

  it('lists a profile and reports the profile members no loaded adapter registers', async () => {
    // A node without the twin adapter: the core profile's twin tools are missing.
    const partial = await startTestNode({ roles: 'gateway,tools,projects,adapter:project' });
    try {
      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${partial.url}/mcp?profile=core`)));
      const res = await client.listTools();
      const names = res.tools.map((x) => x.name);
      expect(names).toContain('project.create');
      expect(names).not.toContain('project.delete');
      const missing = (res._meta as { profile: { name: string; missing: string[] } }).profile;
      expect(missing.name).toBe('core');
      expect(missing.missing).toEqual(expect.arrayContaining(['twin.get_node', 'twin.record_decision']));
      expect(missing.missing).not.toContain('project.get');
      await client.close();
    } finally {
      await partial.stop();
    }
  });

  it('calls a tool and returns its data as structured content and text', async () => {
    const created = await fetch(`${t.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Via MCP' }),
    });
    const project = (await created.json()) as { id: string };
    const { client } = await connect();
    const res = await client.callTool({ name: 'project.get', arguments: { project_id: project.id } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ id: project.id, name: 'Via MCP' });
    expect(JSON.parse((res.content as { text: string }[])[0].text)).toMatchObject({ id: project.id });
    // A separator mistake resolves to the canonical tool.
    const alias = await client.callTool({ name: 'project_get', arguments: { project_id: project.id } });
    expect(alias.structuredContent).toMatchObject({ id: project.id });
    await client.close();
  });

  it('answers an unknown tool with -32601, close matches and the tool count', async () => {
    const { client } = await connect();
    const err = await errorOf(client.callTool({ name: 'project.gett', arguments: {} }));
    expect(err.code).toBe(-32601);
    expect(err.message).toContain('Tool not found: project.gett');
    expect(err.data).toMatchObject({ tool_id: 'project.gett', did_you_mean: ['project.get'] });
    expect((err.data as { tool_count: number }).tool_count).toBeGreaterThanOrEqual(6);
    await client.close();
  });

  it('answers bad arguments with -32602 naming the field, before anything runs', async () => {
    const { client } = await connect();
    const err = await errorOf(client.callTool({ name: 'project.get', arguments: { project_id: 42 } }));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({
      tool_id: 'project.get',
      validation_errors: [expect.objectContaining({ path: 'project_id' })],
    });
    await client.close();
  });

  it('returns a tool that ran and refused as an isError result with _meta', async () => {
    const { client } = await connect();
    const res = await client.callTool({ name: 'project.get', arguments: { project_id: 'no-such-project' } });
    expect(res.isError).toBe(true);
    expect((res.content as { text: string }[])[0].text).toContain('no-such-project');
    expect(res._meta).toMatchObject({
      callId: expect.any(String),
      error: { toolId: 'project.get', durationMs: expect.any(Number) },
    });
    await client.close();
  });

  it('refuses a remote write with the unapproved-held-call error on a node without the holds role (no approval gate wired)', async () => {
    // With the holds role (in `all`) the write is held for a person instead: test/e2e/mcp/holds-*.test.ts.
    const bare = await startTestNode({ roles: 'gateway,tools,projects,adapter:project' });
    try {
      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${bare.url}/mcp`)));
      const err = await errorOf(client.callTool({ name: 'project.create', arguments: { name: 'held' } }));
      expect(err.code).toBe(-32001);
      expect(err.data).toEqual({
        tool_id: 'project.create',
        code: 'approval_required',
        outcome: 'not_configured',
        retryable: false,
      });
      const list = (await (await fetch(`${bare.url}/v1/projects?limit=1000`)).json()) as {
        projects: { name: string }[];
      };
      expect(list.projects.map((p) => p.name)).not.toContain('held');
      await client.close();
    } finally {
      await bare.stop();
    }
  });

  it('opens the GET stream after initialized, and a terminated session answers 404', async () => {
    const { client, transport } = await connect();
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await transport.terminateSession();
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    await client.close();
  });
});
