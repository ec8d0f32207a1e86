import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { KnowledgeActions } from '../../../contracts/actions/knowledge.actions.ts';
import { useTestNode } from '../../support/node.ts';
import { SERVICE_BIN } from '../../support/spawn.ts';

const SOURCES = 'service://knowledge/sources';

/**
 * Connects over `transport`, checks the prompts are served there, subscribes to the knowledge sources, runs `ingest`
 * (a new source) and resolves once `notifications/resources/updated` for the list arrived on this transport.
 */
async function subscribeThenIngest(transport: Transport, ingest: (client: Client) => Promise<void>) {
  const client = new Client({ name: 'transport-resources-test', version: '1' });
  let heard!: () => void;
  const updated = new Promise<void>((resolve) => (heard = resolve));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    if (n.params.uri === SOURCES) heard();
  });
  await client.connect(transport);
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toContain('run_design_flow');
  await client.subscribeResource({ uri: SOURCES });
  await ingest(client);
  await updated;
  await client.close();
}

describe('resource notifications on the other transports', () => {
  it('stdio: a subscribed session hears of a new knowledge source on stdout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVICE_BIN, '--transport', 'stdio'],
      env: { ...(process.env as Record<string, string>), SERVICE_DATA_DIR: 'memory://', SERVICE_LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    // Over stdio a write is not held: the client ingests through the tool itself.
    await subscribeThenIngest(transport, async (client) => {
      const res = await client.callTool({
        name: 'knowledge.ingest',
        arguments: { title: 'Casting note', text: 'Keep fillet radii at or above 1 mm on cast parts.' },
      });
      expect(res.isError).toBeFalsy();
    });
  }, 90_000);

  describe('legacy HTTP+SSE (2024-11-05)', () => {
    const t = useTestNode();
    it('a subscribed session hears of a new knowledge source on its event stream', async () => {
      await subscribeThenIngest(new SSEClientTransport(new URL(`${t.url}/mcp/sse`)), async () => {
        await call(t.node.broker, KnowledgeActions.ingest, {
          title: 'Draft angles',
          text: `Draft angles of 1 degree on sand-cast walls (${Date.now()}).`,
        });
      });
    });
  });
});
