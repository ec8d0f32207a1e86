import type { ServiceSchema } from 'moleculer';
import { action } from '../../../brokers/actions.ts';
import type { Infra } from '../../../brokers/infra.ts';
import { KnowledgeActions as K, KnowledgeAdapterActions } from '../../../contracts/actions/knowledge.actions.ts';
import {
  KnowledgeIngestResultSchema,
  KnowledgeIngestSchema,
  KnowledgeSearchResultSchema,
  KnowledgeSearchSchema,
} from '../../../contracts/knowledge.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool, type ToolContext } from '../kit/tool.ts';
import { actorCall, requireProject } from '../kit/actor-call.ts';

/** Tools of the knowledge adapter; `live` holds the running ingest calls the actor reports progress for. */
function knowledgeTools(live: Map<string, ToolContext>) {
  return [
    defineTool({
      name: 'search',
      title: 'Search the knowledge base',
      description:
        'Full-text search over ingested sources (web-search syntax: words, "quoted phrases", or, -exclusions). ' +
        'Returns hits best first, each a citation {source_id, title, uri, chunk, snippet, score}; no match is an empty list. ' +
        "With project_id (default: the call context project) the project's own and unscoped sources are searched.",
      input: KnowledgeSearchSchema,
      output: KnowledgeSearchResultSchema,
      handler: (args, tc) => actorCall(tc, K.search, { ...args, project_id: args.project_id ?? tc.caller.project_id }),
    }),
    defineTool({
      name: 'ingest',
      title: 'Ingest a text into the knowledge base',
      description:
        'Store a text (up to 5 MB) as a citable source: title, text, optional uri, project_id and media_type. The text is ' +
        'split into chunks of about 1,500 characters on paragraph and sentence boundaries and indexed for search. ' +
        'Ingesting the same text again for the same project answers the existing source with duplicate: true.',
      input: KnowledgeIngestSchema,
      output: KnowledgeIngestResultSchema,
      handler: async (args, tc) => {
        const project_id = args.project_id ?? tc.caller.project_id;
        if (project_id) await requireProject(tc, project_id);
        live.set(tc.callId, tc);
        try {
          const progress = { call_id: tc.callId, node_id: tc.ctx.broker.nodeID };
          const out = await actorCall(tc, K.ingest, { ...args, project_id, progress });
          tc.progress(1, out.duplicate ? 'already ingested' : `stored ${out.source.chunk_count} chunks`);
          return out;
        } finally {
          live.delete(tc.callId);
        }
      },
    }),
  ];
}

/**
 * The `knowledge` adapter: search and ingest over the knowledge actor. Besides the kit's actions it serves
 * `ingestProgress`, where the actor reports chunking and insert progress; it goes on through the call's `tc.progress`.
 */
export function createKnowledgeAdapter(infra: Infra): ServiceSchema {
  const live = new Map<string, ToolContext>();
  const schema = createAdapterService({
    id: 'knowledge',
    version: '0.1.0',
    capability: 'knowledge',
    tools: knowledgeTools(live),
  })(infra);
  schema.actions = {
    ...schema.actions,
    ingestProgress: action(KnowledgeAdapterActions.ingestProgress, ({ call_id, progress, message }) => {
      const tc = live.get(call_id);
      tc?.progress(progress, message);
      return { delivered: tc !== undefined };
    }),
  };
  return schema;
}
