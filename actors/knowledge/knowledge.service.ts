import crypto from 'node:crypto';
import type { Context, ServiceSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import {
  KnowledgeActions as A,
  KnowledgeAdapterActions,
  type IngestProgressTarget,
} from '../../contracts/actions/knowledge.actions.ts';
import { KNOWLEDGE_CHANGED_EVENT } from '../../contracts/actions/change-events.ts';
import { healthAction } from '../adapters/kit/health.ts';
import { chunkText } from './chunker.ts';
import { createKnowledgeStore, type KnowledgeStore } from './knowledge.store.ts';

/** Sends ingest progress to the adapter running the call (best effort: never fails or slows the ingest). */
function progressReporter(ctx: Context, target: IngestProgressTarget | undefined) {
  return (progress: number, message: string) => {
    if (!target) return;
    const params = { call_id: target.call_id, progress, message };
    ctx.call(KnowledgeAdapterActions.ingestProgress.action, params, { nodeID: target.node_id }).catch(() => undefined);
  };
}

/**
 * The `knowledge` actor: owns knowledge_sources and knowledge_chunks. `ingest` chunks the text (about 1,500
 * characters on paragraph and sentence boundaries) and stores it in one transaction; `search` is Postgres
 * full-text search with citations.
 */
export function createKnowledgeService(infra: Infra): ServiceSchema {
  let store: KnowledgeStore;
  return {
    name: 'knowledge',

    actions: {
      ingest: action(A.ingest, async (p, ctx) => {
        const report = progressReporter(ctx, p.progress);
        report(0, 'chunking');
        const chunks = chunkText(p.text);
        report(0.1, `split into ${chunks.length} chunks`);
        const out = await store.ingest(
          {
            id: crypto.randomUUID(),
            title: p.title,
            uri: p.uri ?? null,
            project_id: p.project_id ?? null,
            media_type: p.media_type,
            content_sha256: crypto.createHash('sha256').update(p.text, 'utf8').digest('hex'),
            bytes: Buffer.byteLength(p.text, 'utf8'),
            chunks,
            created_at: infra.now(),
          },
          (done, total) => report(0.1 + (0.85 * done) / total, `stored ${done} of ${total} chunks`),
        );
        infra.log.info(
          { source_id: out.source.id, chunks: out.source.chunk_count, duplicate: out.duplicate },
          'knowledge ingested',
        );
        // A new source changes the sources list (MCP subscribers are told); best effort, safe to lose.
        if (!out.duplicate)
          void Promise.resolve(
            ctx.broadcast(KNOWLEDGE_CHANGED_EVENT, { source_id: out.source.id, project_id: out.source.project_id }),
          ).catch(() => undefined);
        return out;
      }),

      search: action(A.search, async ({ query, project_id, limit }) => ({
        query,
        hits: await store.search(query, project_id ?? null, limit),
      })),

      listSources: action(A.listSources, (q) => store.list(q)),

      getSource: action(A.getSource, async ({ id }) => {
        const source = await store.get(id);
        if (!source) throw ActorError.notFound('source', id);
        return source;
      }),

      health: healthAction(A.health, 'knowledge', async () => {
        await store.ping();
      }),
    },

    async started() {
      store = createKnowledgeStore(await infra.db());
    },
  };
}
