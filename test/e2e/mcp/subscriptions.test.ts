import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { KnowledgeActions } from '../../../contracts/actions/knowledge.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import { postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

const t = useTestNode();

/**
 * An SDK client whose `GET /mcp` stream is open (notifications travel on it): `streamOpen` resolves once the server
 * answered that GET, so a change made after it cannot race the stream. Every update notification is kept in order.
 */
async function subscriber() {
  let opened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (init?.method === 'GET' && res.ok) opened();
      return res;
    },
  });
  const client = new Client({ name: 'subscriptions-test', version: '1.0.0' });
  const updates: string[] = [];
  const waiters: { uri: string; resolve: () => void }[] = [];
  let listChanged!: () => void;
  const listChangedSeen = new Promise<void>((resolve) => (listChanged = resolve));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
    for (const w of waiters.filter((x) => x.uri === n.params.uri)) w.resolve();
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => listChanged());
  await client.connect(transport);
  await streamOpen;
  /** Resolves on the first `notifications/resources/updated` for `uri` (already received or still to come). */
  const updated = (uri: string) =>
    updates.includes(uri) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ uri, resolve }));
  return { client, updates, updated, listChangedSeen };
}

/** The JSON of a text resource content (a blob content has no text: the parse fails the test). */
const jsonOf = (c: object) => JSON.parse('text' in c ? String(c.text) : '');
const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const writeObjective = (project: string, name: string, item_key?: string) =>
  call(t.node.broker, TwinActions.writeDefinition, {
    project_id: project,
    item_type: 'objective',
    name,
    item_key,
    properties: { statement: `${name} at ${Date.now()}` },
  });

describe('resource subscriptions over the official SDK client', () => {
  it('tells a subscribed session when its work product gets a new revision', async () => {
    const p = await newProject('subs-item');
    const item = await writeObjective(p, 'Stiffness');
    const { client, updated } = await subscriber();
    const uri = `service://projects/${p}/work-products/${item.item_key}`;
    await client.subscribeResource({ uri });
    await writeObjective(p, 'Stiffness', item.item_key);
    await updated(uri);
    const head = jsonOf((await client.readResource({ uri })).contents[0]);
    expect(head.node.revision).toBe(2);
    await client.close();
  });

  it("tells a session subscribed to a project's results when a new result is recorded, and that the list changed", async () => {
    const p = await newProject('subs-results');
    const { client, updated, listChangedSeen } = await subscriber();
    const uri = `service://projects/${p}/sim-results`;
    await client.subscribeResource({ uri });
    await okData(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: p,
        document_type: 'simulation_result',
        name: 'Hook static',
        summary: { max_von_mises_mpa: 95 },
      }),
    );
    await Promise.all([updated(uri), listChangedSeen]);
    await client.close();
  });

  it('tells a session subscribed to the knowledge sources when a new source is ingested', async () => {
    const { client, updated } = await subscriber();
    await client.subscribeResource({ uri: 'service://knowledge/sources' });
    const { source } = await call(t.node.broker, KnowledgeActions.ingest, {
      title: `Bolt preload note ${Date.now()}`,
      text: `Preload M8 class 8.8 bolts to 70 % of proof load (${Math.random()}).`,
    });
    await updated('service://knowledge/sources');
    const list = jsonOf((await client.readResource({ uri: 'service://knowledge/sources' })).contents[0]);
    expect(list.sources.map((s: { id: string }) => s.id)).toContain(source.id);
    await client.close();
  });

  it('stops telling after unsubscribe', async () => {
    const p = await newProject('subs-unsubscribe');
    const a = await writeObjective(p, 'Mass');
    const b = await writeObjective(p, 'Cost');
    const { client, updates, updated } = await subscriber();
    const uriA = `service://projects/${p}/work-products/${a.item_key}`;
    const uriB = `service://projects/${p}/work-products/${b.item_key}`;
    await client.subscribeResource({ uri: uriA });
    await client.subscribeResource({ uri: uriB });
    await client.unsubscribeResource({ uri: uriA });
    // A changes first, then B: once B's notice is in, A's (had it been sent) would have come before it.
    await writeObjective(p, 'Mass', a.item_key);
    await writeObjective(p, 'Cost', b.item_key);
    await updated(uriB);
    expect(updates).not.toContain(uriA);
    await client.close();
  });

  it('refuses to subscribe to a resource that does not exist or is another project’s (-32002)', async () => {
    const mine = await newProject('subs-mine');
    const other = await newProject('subs-other');
    const theirs = await writeObjective(other, 'Secret');
    const { client } = await subscriber();
    for (const uri of [
      `service://projects/${mine}/work-products/${theirs.item_key}`,
      `service://projects/${mine}/work-products/../../${other}`,
      'service://projects/no-such-project/sim-results',
    ]) {
      const err = await client.subscribeResource({ uri }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, uri).toBeInstanceOf(McpError);
      expect((err as McpError).code, uri).toBe(-32002);
    }
    await client.close();
  });
});
