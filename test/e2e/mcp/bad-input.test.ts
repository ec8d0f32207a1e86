import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawMcp } from '../../support/mcp-raw.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

// Issue findings 5 and 6 over the tool server: a NUL byte in an argument is an invalid-params error naming the field
// (never the database's text), `?request=[]` on the SSE transport answers -32600, and the Bearer scheme is matched
// case-insensitively (RFC 7235) on /mcp as on the approvals routes.
const KEY = 'k-0123456789abcdef';
const TOKEN = 'alice-token-0123456789abcdef';
let t: TestNode;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bad-input-'));
  const tokens = path.join(dir, 'tokens.json');
  fs.writeFileSync(tokens, JSON.stringify({ [TOKEN]: 'alice@example.com' }), { mode: 0o600 });
  t = await startTestNode({ env: { SERVICE_MCP_API_KEY: KEY, SERVICE_AUTH_TOKENS_PATH: tokens } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${KEY}` } },
  });
  const client = new Client({ name: 'bad-input', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

const errorOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
};

describe('a NUL byte in a tool argument is -32602 naming the field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['project.get', { project_id: 'a\u0000b' }, 'project_id'],
    ['knowledge.search', { query: 'bolt\u0000' }, 'query'],
    ['knowledge.search', { query: 'bolt', project_id: '\u0000' }, 'project_id'],
    ['memory.retrieve_similar_experience', { query: 'x\u0000y' }, 'query'],
    ['flow.status', { run_id: 'run_\u0000' }, 'run_id'],
    ['flow.list', { project_id: '\u0000' }, 'project_id'],
  ];
  it.each(cases)('%s %j', async (name, args, field) => {
    const client = await connect();
    try {
      const err = await errorOf(client.callTool({ name, arguments: args }));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain(field);
      expect(err.message).not.toMatch(/22021|invalid byte sequence|0x00|syntax/i);
    } finally {
      await client.close();
    }
  });

  it('in the legacy tool/call too', async () => {
    const r = await rawMcp(t.url, { authorization: `Bearer ${KEY}` }).post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tool/call',
      params: { tool_id: 'project.get', arguments: { project_id: 'a\u0000' } },
    });
    expect(r.json.error.code).toBe(-32602);
    expect(JSON.stringify(r.json.error)).toContain('project_id');
  });

  it('in any other request param, such as a resource uri', async () => {
    const client = await connect();
    try {
      const err = await errorOf(client.readResource({ uri: 'twin://nodes/\u0000' }));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain('uri');
    } finally {
      await client.close();
    }
  });
});

describe('the SSE transport and the Bearer scheme', () => {
  it('answers ?request=[] with an event: response carrying -32600, then done', async () => {
    const res = await fetch(`${t.url}/mcp/sse?request=${encodeURIComponent('[]')}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const text = await res.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => [m[1], JSON.parse(m[2])] as const);
    expect(events.map((e) => e[0])).toEqual(['response', 'done']);
    expect(events[0][1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it.each(['bearer', 'BEARER', 'Bearer'])(
    'accepts the scheme spelled %s on /mcp and on the approvals routes',
    async (scheme) => {
      const ping = await rawMcp(t.url, { authorization: `${scheme} ${KEY}` }).post({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
      });
      expect(ping.status).toBe(200);
      expect(ping.json.result).toEqual({});
      const list = await fetch(`${t.url}/v1/approvals`, { headers: { authorization: `${scheme} ${TOKEN}` } });
      expect(list.status).toBe(200);
    },
  );

  it('still refuses another scheme or a wrong key on both', async () => {
    expect(
      (await rawMcp(t.url, { authorization: `Basic ${KEY}` }).post({ jsonrpc: '2.0', id: 1, method: 'ping' })).status,
    ).toBe(401);
    expect(
      (await rawMcp(t.url, { authorization: 'bearer nope' }).post({ jsonrpc: '2.0', id: 1, method: 'ping' })).status,
    ).toBe(401);
    expect(
      (await fetch(`${t.url}/v1/approvals`, { headers: { authorization: 'bearer not-a-known-token-xx' } })).status,
    ).toBe(401);
  });
});
