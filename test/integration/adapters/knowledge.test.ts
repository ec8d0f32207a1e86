import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolResultSchema, type ToolResult } from '../../../contracts/tool-result.ts';
import { KnowledgeActions } from '../../../contracts/actions/knowledge.actions.ts';
import {
  KnowledgeIngestResultSchema,
  KnowledgeSearchResultSchema,
  KnowledgeSourceWithTextSchema,
} from '../../../contracts/knowledge.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { dbBackends, type TestDatabase } from '../../support/pg.ts';
import { recordToolProgress, type ToolProgress } from '../../support/tools.ts';

const backends = dbBackends('know');

/** A handbook of distinct paragraphs, long enough for several chunks. */
function handbook(): string {
  const topics = [
    'Fatigue of aluminium brackets: 6061-T6 has no endurance limit, so size the bracket for the expected number of load cycles.',
    'Fillet radii below two millimetres concentrate stress at the weld toe; grind the toe or enlarge the radius.',
    'Bolt preload should reach seventy percent of proof load. Check thread engagement against the nut material.',
    'Thermal expansion mismatch between steel and aluminium parts loosens joints over many temperature cycles.',
    'Conformal coating protects the printed circuit board against condensation. Mask the connectors before spraying.',
  ];
  return topics.map((t, i) => `Section ${i + 1}.\n\n${`${t} `.repeat(6).trim()}\n`).join('\n');
}

for (const backend of backends) {
  describe.runIf(backend.enabled)(`knowledge adapter on ${backend.name}`, () => {
    let t: TestNode;
    let db: TestDatabase | undefined;
    const progress: ToolProgress[] = [];
    beforeAll(async () => {
      db = await backend.database();
      t = await startTestNode({
        roles: 'projects,knowledge,adapter:knowledge',
        env: db ? { SERVICE_DATABASE_URL: db.url } : {},
      });
      await recordToolProgress(t.node.broker, progress);
    });
    afterAll(async () => {
      await t?.stop();
      await db?.drop();
    });

    const invoke = async (
      tool: string,
      args: Record<string, unknown>,
      callId: string = crypto.randomUUID(),
    ): Promise<ToolResult> =>
      ToolResultSchema.parse(
        await t.node.broker.call(
          'adapters.knowledge.invoke',
          {
            tool_id: `knowledge.${tool}`,
            arguments: args,
            call_id: callId,
            timeout_ms: 20_000,
            caller: { kind: 'stdio', transport: 'stdio' },
            progress_node: t.node.broker.nodeID,
          },
          { timeout: 25_000 },
        ),
      );
    const ok = async (tool: string, args: Record<string, unknown>, callId?: string) => {
      const r = await invoke(tool, args, callId);
      if (r.status !== 'success') throw new Error(`${tool} failed: ${JSON.stringify(r.error)}`);
      return r.data;
    };

    it('ingests a text in chunks, reports progress, and gives the exact text back', async () => {
      const text = handbook();
      const callId = crypto.randomUUID();
      const out = KnowledgeIngestResultSchema.parse(
        await ok('ingest', { title: 'Design handbook', text, uri: 'https://example.com/handbook' }, callId),
      );
      expect(out.duplicate).toBe(false);
      expect(out.source).toMatchObject({
        title: 'Design handbook',
        uri: 'https://example.com/handbook',
        project_id: null,
        media_type: 'text/plain',
      });
      expect(out.source.bytes).toBe(Buffer.byteLength(text));
      expect(out.source.content_sha256).toBe(crypto.createHash('sha256').update(text).digest('hex'));
      expect(out.source.chunk_count).toBeGreaterThanOrEqual(Math.floor(text.length / 1900));
      expect(out.source.chunk_count).toBeLessThanOrEqual(Math.ceil(text.length / 1000));

      const mine = progress.filter((p) => p.call_id === callId);
      expect(mine.map((p) => p.message)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/split into \d+ chunks/),
          expect.stringMatching(/stored \d+ of \d+ chunks/),
        ]),
      );
      expect(mine.at(-1)).toMatchObject({ progress: 1 });
      expect(mine.map((p) => p.progress)).toEqual([...mine.map((p) => p.progress)].sort((a, b) => a - b));

      const back = KnowledgeSourceWithTextSchema.parse(
        await t.node.broker.call(KnowledgeActions.getSource.action, { id: out.source.id }),
      );
      expect(back.text).toBe(text);
      expect(back.chunk_count).toBe(out.source.chunk_count);
    });

    it('is idempotent on content per project', async () => {
      const text = `Torque spec sheet ${crypto.randomUUID()}: M6 bolts at 10 N·m.`;
      const first = KnowledgeIngestResultSchema.parse(await ok('ingest', { title: 'Torque', text }));
      const again = KnowledgeIngestResultSchema.parse(await ok('ingest', { title: 'Torque (renamed)', text }));
      expect(again).toEqual({ source: first.source, duplicate: true });
      const project = (await t.node.broker.call('projects.create', { name: 'Robot arm' })) as { id: string };
      const scoped = KnowledgeIngestResultSchema.parse(
        await ok('ingest', { title: 'Torque', text, project_id: project.id }),
      );
      expect(scoped.duplicate).toBe(false);
      expect(scoped.source.id).not.toBe(first.source.id);
      expect(scoped.source.project_id).toBe(project.id);
    });

    it('stores a large text across several insert batches, reporting each', async () => {
      const paragraph =
        'Stiffness of the chassis governs the first natural frequency. Keep it above the drive frequency. ';
      const text = Array.from({ length: 4000 }, (_, i) => `${i}. ${paragraph}${i % 5 === 4 ? '\n\n' : ''}`).join('');
      const callId = crypto.randomUUID();
      const out = KnowledgeIngestResultSchema.parse(await ok('ingest', { title: 'Chassis notes', text }, callId));
      expect(out.source.chunk_count).toBeGreaterThan(200);
      const batches = progress.filter((p) => p.call_id === callId && /^stored \d+ of \d+ chunks$/.test(p.message));
      expect(batches.length).toBe(Math.ceil(out.source.chunk_count / 100));
      const back = KnowledgeSourceWithTextSchema.parse(
        await t.node.broker.call(KnowledgeActions.getSource.action, { id: out.source.id }),
      );
      expect(back.text).toBe(text);
    });

    it('finds ranked hits with citations and highlighted snippets', async () => {
      const res = KnowledgeSearchResultSchema.parse(await ok('search', { query: 'fillet weld stress' }));
      expect(res.hits.length).toBeGreaterThan(0);
      const best = res.hits[0];
      expect(best).toMatchObject({ title: 'Design handbook', uri: 'https://example.com/handbook' });
      expect(best.snippet).toMatch(/\*\*(fillet|Fillet|weld|stress)\*\*/);
      expect(best.score).toBeGreaterThan(0);
      expect(res.hits.map((h) => h.score)).toEqual([...res.hits.map((h) => h.score)].sort((a, b) => b - a));
      const source = KnowledgeSourceWithTextSchema.parse(
        await t.node.broker.call(KnowledgeActions.getSource.action, { id: best.source_id }),
      );
      expect(source.text).toContain('Fillet radii below two millimetres');
    });

    it('answers no match with an empty list, and survives any query text', async () => {
      expect(await ok('search', { query: 'quantum chromodynamics' })).toEqual({
        query: 'quantum chromodynamics',
        hits: [],
      });
      for (const query of [`"unclosed & | ! ( :* '`, 'the of and', 'OR -', "\\\\ '' ::"]) {
        const r = await invoke('search', { query });
        expect(r.status, query).toBe('success');
      }
      const phrase = KnowledgeSearchResultSchema.parse(
        await ok('search', { query: '"conformal coating" -aluminium', limit: 2 }),
      );
      expect(phrase.hits.length).toBeGreaterThan(0);
      expect(phrase.hits.length).toBeLessThanOrEqual(2);
      expect(phrase.hits.every((h) => /conformal/i.test(h.snippet))).toBe(true);
    });

    it('scopes search to a project plus unscoped sources', async () => {
      const a = (await t.node.broker.call('projects.create', { name: 'A' })) as { id: string };
      const b = (await t.node.broker.call('projects.create', { name: 'B' })) as { id: string };
      await ok('ingest', {
        title: 'A notes',
        text: 'Gasket compression set limits the reseal count.',
        project_id: a.id,
      });
      await ok('ingest', {
        title: 'B notes',
        text: 'Gasket durometer of seventy shore A seals the lid.',
        project_id: b.id,
      });
      await ok('ingest', { title: 'Shared', text: 'Gasket grooves need a fill ratio below ninety percent.' });
      const inA = KnowledgeSearchResultSchema.parse(await ok('search', { query: 'gasket', project_id: a.id }));
      expect(inA.hits.map((h) => h.title).sort()).toEqual(['A notes', 'Shared']);
      const all = KnowledgeSearchResultSchema.parse(await ok('search', { query: 'gasket' }));
      expect(all.hits.map((h) => h.title).sort()).toEqual(['A notes', 'B notes', 'Shared']);
      const listed = (await t.node.broker.call(KnowledgeActions.listSources.action, { project_id: a.id })) as {
        sources: { title: string; chunk_count: number }[];
        total: number;
      };
      expect(listed).toMatchObject({ total: 1, sources: [{ title: 'A notes', chunk_count: 1 }] });
    });

    it('refuses an unknown project and a text over 5 MB', async () => {
      const r = await invoke('ingest', { title: 'x', text: 'hello', project_id: 'nope-project' });
      expect(r.status === 'error' && r.error).toMatchObject({
        type: 'TOOL_EXECUTION_ERROR',
        message: expect.stringContaining('nope-project'),
      });
      const big = await invoke('ingest', { title: 'too big', text: 'é'.repeat(3 * 1024 * 1024) });
      expect(big).toMatchObject({ status: 'error', error: { type: 'INVALID_ARGUMENTS' } });
    });
  });
}
