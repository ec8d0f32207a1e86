import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { KnowledgeSourceListSchema, KnowledgeSourceWithTextSchema } from '../../../contracts/knowledge.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

/** Ingests through the knowledge adapter, as the tool server would. */
async function ingest(args: Record<string, unknown>): Promise<{ source: { id: string; chunk_count: number } }> {
  const r = (await t.node.broker.call('adapters.knowledge.invoke', {
    tool_id: 'knowledge.ingest',
    arguments: args,
    call_id: crypto.randomUUID(),
    timeout_ms: 10_000,
    caller: { kind: 'stdio', transport: 'stdio' },
  })) as { status: string; data: { source: { id: string; chunk_count: number } } };
  expect(r.status).toBe('success');
  return r.data;
}

describe('knowledge sources over HTTP', () => {
  it('lists sources with chunk counts, by project, and reads one with its full text', async () => {
    const project = (await (
      await fetch(`${t.url}/v1/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Enclosure' }),
      })
    ).json()) as { id: string };
    const text = Array.from({ length: 12 }, (_, i) =>
      `Paragraph ${i}: the enclosure wall is 2.5 mm polycarbonate with ribs every 20 mm.`.repeat(4),
    ).join('\n\n');
    const scoped = await ingest({
      title: 'Enclosure spec',
      text,
      uri: 'file:///specs/enclosure.md',
      project_id: project.id,
      media_type: 'text/markdown',
    });
    await ingest({ title: 'General notes', text: 'Draft angles of one degree ease demoulding.' });

    const res = await fetch(`${t.url}/v1/knowledge/sources?project_id=${project.id}`);
    expect(res.status).toBe(200);
    const list = KnowledgeSourceListSchema.parse(await res.json());
    expect(list.total).toBe(1);
    expect(list.sources[0]).toMatchObject({
      id: scoped.source.id,
      title: 'Enclosure spec',
      media_type: 'text/markdown',
      project_id: project.id,
    });
    expect(list.sources[0].chunk_count).toBeGreaterThan(1);
    const all = KnowledgeSourceListSchema.parse(await (await fetch(`${t.url}/v1/knowledge/sources`)).json());
    expect(all.sources.map((s) => s.title)).toEqual(['General notes', 'Enclosure spec']);

    const one = await fetch(`${t.url}/v1/knowledge/sources/${scoped.source.id}`);
    expect(one.status).toBe(200);
    const source = KnowledgeSourceWithTextSchema.parse(await one.json());
    expect(source.text).toBe(text);
    expect(source).toMatchObject({ uri: 'file:///specs/enclosure.md', chunk_count: scoped.source.chunk_count });
  });

  it('answers an unknown source with 404 and the error body', async () => {
    for (const id of [crypto.randomUUID(), 'nope']) {
      const res = await fetch(`${t.url}/v1/knowledge/sources/${id}`);
      expect(res.status).toBe(404);
      const body = ErrorBodySchema.parse(await res.json());
      expect(body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining(id) });
    }
  });
});
