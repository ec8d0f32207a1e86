import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestNode, type TestNode } from '../support/node.ts';
import { rawMcp } from '../support/mcp-raw.ts';
import { natsClusterEnv } from '../support/servers.ts';

/**
 * The registry follows adapters joining and leaving the bus: an adapter on another node that goes away keeps its
 * tools registered in health (reachable false), disappears from listings under `_meta.unavailableAdapters`, and calls
 * to it fail at once with TOOL_UNAVAILABLE; when it comes back everything heals.
 */
describe.runIf(inject('servers').nats)('adapters joining and leaving the bus', () => {
  let main: TestNode;
  let adapter: TestNode | undefined;
  const env = natsClusterEnv();
  const startAdapter = () => startTestNode({ roles: 'adapter:project', env });

  beforeAll(async () => {
    main = await startTestNode({ roles: 'gateway,tools,projects', env });
    adapter = await startAdapter();
  });
  afterAll(async () => {
    await adapter?.stop();
    await main.stop();
  });

  it('lists, drops and re-lists the remote adapter, with health and calls following', async () => {
    const mcp = rawMcp(main.url);
    const { sessionId } = await mcp.initialize();
    const h = { 'mcp-session-id': sessionId };
    const names = async () => {
      const r = (await mcp.post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, h)).json.result;
      return { names: r.tools.map((x: { name: string }) => x.name) as string[], meta: r._meta };
    };
    await expect.poll(async () => (await names()).names, { timeout: 10_000 }).toContain('project.get');

    await adapter!.stop();
    adapter = undefined;
    await expect
      .poll(async () => (await names()).meta, { timeout: 10_000 })
      .toEqual({ unavailableAdapters: ['project'] });
    expect((await names()).names).not.toContain('project.get');

    const call = await mcp.post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'project.list', arguments: {} } },
      h,
    );
    expect(call.json.error).toMatchObject({
      code: -32003,
      data: { error_type: 'TOOL_UNAVAILABLE', tool_id: 'project.list' },
    });

    const health = (await (await fetch(`${main.url}/health`)).json()) as Record<string, any>;
    expect(health.status).toBe('degraded');
    expect(health.unreachable_adapters).toEqual(['project']);
    expect(health.adapters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ adapter_id: 'project', tools_registered: 5, reachable: false }),
      ]),
    );
    expect(health.detail).toContain('project');

    adapter = await startAdapter();
    await expect.poll(async () => (await names()).names, { timeout: 10_000 }).toContain('project.get');
    const ok = await mcp.post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'project.list', arguments: {} } },
      h,
    );
    expect(ok.json.result.structuredContent).toMatchObject({ total: expect.any(Number) });
  }, 60_000);
});
