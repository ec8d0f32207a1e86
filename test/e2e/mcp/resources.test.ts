import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import { postJson } from '../../support/http-raw.ts';
import { startTestNode, useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

const t = useTestNode();

const STEP = 'ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n';
/** A 1x1 PNG: binary bytes (not UTF-8) an item can carry as its file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

async function connect() {
  const client = new Client({ name: 'resources-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
  return client;
}
const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const commitGeometry = (project: string, name: string) =>
  okData<{ item_key: string; node_id: string }>(
    callTool(t.node.broker, 'twin.commit_geometry', {
      project_id: project,
      name,
      step_base64: Buffer.from(STEP).toString('base64'),
    }),
  );
const errorOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
};
/** The JSON of a text resource content (a blob content has no text: the parse fails the test). */
const textOf = (c: object) => JSON.parse('text' in c ? String(c.text) : '');

describe('resources over the official SDK client', () => {
  it('lists the templates of knowledge sources, work products and simulation results (no fixtures without the flag)', async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      'service://knowledge/sources/{source_id}',
      'service://projects/{project_id}/work-products',
      'service://projects/{project_id}/work-products/{item_key}',
      'service://projects/{project_id}/work-products/{item_key}/file',
      'service://projects/{project_id}/sim-results',
      'service://projects/{project_id}/sim-results/{result_id}',
    ]);
    expect((await errorOf(client.readResource({ uri: 'test://static-text' }))).code).toBe(-32002);
    await client.close();
  });

  it("reads an item's head revision as JSON and its STEP file as text", async () => {
    const p = await newProject('resources-step');
    await commitGeometry(p, 'Bracket');
    const second = await commitGeometry(p, 'Bracket');
    const client = await connect();
    const uri = `service://projects/${p}/work-products/${second.item_key}`;
    const head = await client.readResource({ uri });
    expect(head.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    const body = textOf(head.contents[0]);
    expect(body).toMatchObject({
      file_uri: `${uri}/file`,
      node: { id: second.node_id, item_key: second.item_key, revision: 2, node_type: 'cad_model', project_id: p },
    });
    const file = await client.readResource({ uri: `${uri}/file` });
    expect(file.contents[0]).toMatchObject({ uri: `${uri}/file`, text: STEP });
    const list = textOf((await client.readResource({ uri: `service://projects/${p}/work-products` })).contents[0]);
    expect(list.items).toEqual([
      expect.objectContaining({ key: second.item_key, head_ref: `${second.item_key}@2`, uri }),
    ]);
    await client.close();
  });

  it('reads a binary file as a base64 blob with its media type', async () => {
    const p = await newProject('resources-png');
    const form = new FormData();
    form.append('project_id', p);
    form.append('wp_type', 'technical_drawing');
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'drawing.png');
    const imported = (await (await fetch(`${t.url}/v1/twin/import`, { method: 'POST', body: form })).json()) as {
      item_key: string;
    };
    const client = await connect();
    const uri = `service://projects/${p}/work-products/${imported.item_key}/file`;
    const [content] = (await client.readResource({ uri })).contents;
    expect(content).toMatchObject({ uri, mimeType: 'image/png' });
    expect(Buffer.from(String((content as { blob: string }).blob), 'base64').equals(PNG)).toBe(true);
    await client.close();
  });

  it("reads a simulation result and the project's results list", async () => {
    const p = await newProject('resources-sim');
    const result = await okData<{ node_id: string }>(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: p,
        document_type: 'simulation_result',
        name: 'Bracket static',
        summary: { max_von_mises_mpa: 182.5 },
      }),
    );
    const client = await connect();
    const uri = `service://projects/${p}/sim-results/${result.node_id}`;
    const body = textOf((await client.readResource({ uri })).contents[0]);
    expect(body).toMatchObject({
      uri,
      field: null,
      node: { id: result.node_id, node_type: 'simulation_result', properties: { max_von_mises_mpa: 182.5 } },
    });
    const list = textOf((await client.readResource({ uri: `service://projects/${p}/sim-results` })).contents[0]);
    expect(list).toMatchObject({ project_id: p, total: 1, results: [{ uri, id: result.node_id }] });
    await client.close();
  });

  it('pages resources/list with an opaque cursor, every resource once', async () => {
    const p = await newProject('resources-paging');
    for (let i = 0; i < 105; i++)
      await call(t.node.broker, TwinActions.writeDefinition, {
        project_id: p,
        item_type: 'objective',
        name: `Objective ${i}`,
      });
    const client = await connect();
    const first = await client.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const seen = [...first.resources.map((r) => r.uri)];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await client.listResources({ cursor });
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const mine = seen.filter((u) => u.startsWith(`service://projects/${p}/`));
    expect(mine).toHaveLength(106);
    expect(seen).toContain('service://knowledge/sources');
    const bad = await errorOf(client.listResources({ cursor: 'not-a-cursor' }));
    expect(bad.code).toBe(-32602);
    await client.close();
  });
});

describe('a node without the twin actor', () => {
  it('still lists the knowledge sources and names the families it could not list in _meta.unavailable', async () => {
    const partial = await startTestNode({ roles: 'gateway,tools,projects,knowledge' });
    try {
      const client = new Client({ name: 'resources-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${partial.url}/mcp`)));
      const res = await client.listResources();
      expect(res.resources.map((r) => r.uri)).toContain('service://knowledge/sources');
      expect(Object.keys((res._meta as { unavailable: Record<string, string> }).unavailable).sort()).toEqual([
        'sim-results',
        'work-products',
      ]);
      await client.close();
    } finally {
      await partial.stop();
    }
  }, 90_000);
});

describe('hostile resource URIs', () => {
  it('answers -32002 with the URI in data for unknown, escaping and other-project URIs, alike', async () => {
    const mine = await newProject('hostile-mine');
    const other = await newProject('hostile-other');
    const item = await commitGeometry(other, 'Secret part');
    const intent = await call(t.node.broker, TwinActions.writeDefinition, {
      project_id: mine,
      item_type: 'intent',
      name: 'No file here',
    });
    const client = await connect();
    const uris = [
      'service://nothing/here',
      `service://projects/${mine}/work-products/${item.item_key}`,
      `service://projects/${mine}/work-products/${item.item_key}/file`,
      `service://projects/${mine}/work-products/../../${other}/work-products/${item.item_key}`,
      `service://projects/${mine}/work-products/%2e%2e%2f${item.item_key}`,
      `service://projects/${mine}/work-products/${intent.item_key}/file`,
      `service://projects/${mine}/sim-results/${item.node_id}`,
      `service://projects/no-such-project/work-products`,
      'service://knowledge/sources/../../etc/passwd',
      'service://knowledge/sources/no-such-source',
    ];
    for (const uri of uris) {
      const err = await errorOf(client.readResource({ uri }));
      expect(err.code, uri).toBe(-32002);
      expect(err.data, uri).toEqual({ uri });
    }
    // The owner's URI reads.
    const ok = await client.readResource({ uri: `service://projects/${other}/work-products/${item.item_key}` });
    expect(ok.contents).toHaveLength(1);
    expect((await errorOf(client.readResource({ uri: '' }))).code).toBe(-32602);
    await client.close();
  });
});
