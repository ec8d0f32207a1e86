import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { rawMcp } from '../../support/mcp-raw.ts';

let t: TestNode;
let mcp: ReturnType<typeof rawMcp>;
beforeAll(async () => {
  t = await startTestNode();
  mcp = rawMcp(t.url);
});
afterAll(async () => {
  await t.stop();
});

describe('JSON-RPC on /mcp: bad input', () => {
  it('answers unparseable JSON with -32700', async () => {
    const r = await mcp.post('{"jsonrpc": "2.0", "id": 1, ');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32700);
  });

  it('answers a wrong envelope with -32600', async () => {
    for (const body of [
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      'null',
      '42',
    ]) {
      const r = await mcp.post(body);
      expect(r.json.error.code, JSON.stringify(body)).toBe(-32600);
    }
  });

  it('answers an unknown method with -32601, with or without a session', async () => {
    expect((await mcp.post({ jsonrpc: '2.0', id: 1, method: 'server/discover' })).json.error.code).toBe(-32601);
    const { sessionId } = await mcp.initialize();
    const r = await mcp.post({ jsonrpc: '2.0', id: 2, method: 'no/such' }, { 'mcp-session-id': sessionId });
    expect(r.status).toBe(200);
    expect(r.json.error).toMatchObject({ code: -32601 });
  });

  it('answers a batch per JSON-RPC 2.0', async () => {
    const r = await mcp.post([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tool/list' },
      { jsonrpc: '2.0', id: 'c', method: 'nope' },
    ]);
    expect(r.status).toBe(200);
    expect(r.json.map((x: { id: string }) => x.id)).toEqual(['a', 'b', 'c']);
    expect(r.json[0].result).toEqual({});
    expect(r.json[1].result.tools.length).toBeGreaterThan(0);
    expect(r.json[2].error.code).toBe(-32601);
  });

  it('answers an oversized body with 413', async () => {
    const r = await mcp.post({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(11 * 1024 * 1024) } });
    expect(r.status).toBe(413);
  });

  it('needs a session id for MCP methods: missing is 400, unknown is 404', async () => {
    expect((await mcp.post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(400);
    expect((await mcp.post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-session-id': 'nope' })).status).toBe(
      404,
    );
    const get = await fetch(`${t.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    const del = await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': 'nope' } });
    expect(del.status).toBe(404);
  });

  it('refuses an unsupported MCP-Protocol-Version header and accepts any supported one', async () => {
    const { sessionId } = await mcp.initialize();
    const bad = await mcp.post(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(bad.status).toBe(400);
    const old = await mcp.post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' },
    );
    expect(old.status).toBe(200);
  });

  it('refuses a foreign Host or Origin on /mcp', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${t.url}/mcp`,
        { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    expect(status).toBe(403);
    expect(
      (await mcp.post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://evil.example.com' })).status,
    ).toBe(403);
  });
});

describe('JSON-RPC on /mcp: methods', () => {
  it('acknowledges notifications with 202 and serves ping, logging/setLevel and health/check', async () => {
    const { sessionId, result } = await mcp.initialize('2025-11-25');
    expect(result.protocolVersion).toBe('2025-11-25');
    expect(result.capabilities).toMatchObject({ tools: {}, logging: {} });
    const h = { 'mcp-session-id': sessionId };
    expect((await mcp.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status).toBe(202);
    expect((await mcp.post({ jsonrpc: '2.0', id: 1, method: 'ping' }, h)).json.result).toEqual({});
    expect(
      (await mcp.post({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'warning' } }, h)).json
        .result,
    ).toEqual({});
    expect(
      (await mcp.post({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'loud' } }, h)).json.error
        .code,
    ).toBe(-32602);
    const health = (await mcp.post({ jsonrpc: '2.0', id: 4, method: 'health/check' }, h)).json.result;
    expect(health).toMatchObject({ status: 'healthy', auth: 'open', client: { can_elicit: false, name: 'raw' } });
    expect(health.adapters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ adapter_id: 'project', tools_registered: 5, reachable: true }),
      ]),
    );
  });

  it("answers the pinned revision to an older client and reports the skew in the session's own health/check, never in GET /health", async () => {
    const { result, sessionId } = await mcp.initialize(
      '2025-06-18',
      { elicitation: {} },
      { name: 'older-client', version: '0.9' },
    );
    expect(result.protocolVersion).toBe('2025-11-25');
    const own = (await mcp.post({ jsonrpc: '2.0', id: 1, method: 'health/check' }, { 'mcp-session-id': sessionId }))
      .json.result;
    expect(own.client).toMatchObject({
      name: 'older-client',
      can_elicit: true,
      protocol_skew: { requested: '2025-06-18', pinned: '2025-11-25' },
    });
    const health = (await (await fetch(`${t.url}/health`)).json()) as { client: Record<string, unknown> };
    expect(health.client).toEqual({ can_elicit: false });
  });

  it('serves the legacy dialect: tool/list manifests and tool/call results and errors', async () => {
    const list = (await mcp.post({ jsonrpc: '2.0', id: 1, method: 'tool/list', params: { capability: 'project' } }))
      .json.result;
    expect(list.tools.map((x: { tool_id: string }) => x.tool_id).sort()).toEqual([
      'project.create',
      'project.delete',
      'project.get',
      'project.list',
      'project.update',
    ]);
    expect(list.tools[0]).toMatchObject({
      adapter_id: 'project',
      capability: 'project',
      phase: 1,
      resource_limits: { max_memory_mb: 1024 },
    });
    const ok = (
      await mcp.post({ jsonrpc: '2.0', id: 2, method: 'tool/call', params: { tool_id: 'project.list', arguments: {} } })
    ).json.result;
    expect(ok).toMatchObject({
      tool_id: 'project.list',
      status: 'success',
      data: { total: expect.any(Number) },
      output_files: [],
    });
    const err = (
      await mcp.post({
        jsonrpc: '2.0',
        id: 3,
        method: 'tool/call',
        params: { tool_id: 'project.get', arguments: { project_id: 'x' } },
      })
    ).json.error;
    expect(err).toMatchObject({
      code: -32001,
      message: 'Tool execution failed',
      data: { error_type: 'TOOL_EXECUTION_ERROR', tool_id: 'project.get' },
    });
    expect(JSON.stringify(err.data.details)).toContain('project x not found');
    const bad = (
      await mcp.post({
        jsonrpc: '2.0',
        id: 4,
        method: 'tool/call',
        params: { tool_id: 'project.list', arguments: {}, timeout_seconds: 0 },
      })
    ).json.error;
    expect(bad.code).toBe(-32602);
  });

  it('serves several concurrent POSTs on one session', async () => {
    const { sessionId } = await mcp.initialize();
    const h = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const replies = await Promise.all(
      [1, 2, 3, 4, 5].map((id) => mcp.post({ jsonrpc: '2.0', id, method: 'tools/list' }, h)),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies.map((r) => r.json.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers an unknown ?profile= with -32602 listing the valid profiles', async () => {
    const { sessionId } = await mcp.initialize();
    const r = await mcp.post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-session-id': sessionId },
      '/mcp?profile=wizardry',
    );
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.message).toContain('core, mechanical, mechanical_product, simulation, electronics, robotics');
  });
});
