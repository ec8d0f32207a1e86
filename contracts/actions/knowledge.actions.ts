import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import {
  KnowledgeIngestResultSchema,
  KnowledgeIngestSchema,
  KnowledgeSearchResultSchema,
  KnowledgeSearchSchema,
  KnowledgeSourceListQuerySchema,
  KnowledgeSourceListSchema,
  KnowledgeSourceWithTextSchema,
} from '../knowledge.ts';
import { ToolProgressEventSchema } from './adapters.actions.ts';

/** Where the knowledge actor reports ingest progress: the tool call and the node running it. */
export const IngestProgressTargetSchema = z.object({ call_id: z.string(), node_id: z.string() });
export type IngestProgressTarget = z.infer<typeof IngestProgressTargetSchema>;

/** Bus actions of the `knowledge` actor (tables knowledge_sources, knowledge_chunks). */
export const KnowledgeActions = {
  ingest: defineAction(
    'knowledge.ingest',
    KnowledgeIngestSchema.extend({ progress: IngestProgressTargetSchema.optional() }),
    KnowledgeIngestResultSchema,
  ),
  search: defineAction('knowledge.search', KnowledgeSearchSchema, KnowledgeSearchResultSchema),
  listSources: defineAction('knowledge.listSources', KnowledgeSourceListQuerySchema, KnowledgeSourceListSchema),
  getSource: defineAction(
    'knowledge.getSource',
    z.object({ id: z.string().min(1).max(200) }),
    KnowledgeSourceWithTextSchema,
  ),
  health: defineAction('knowledge.health', z.object({}), ComponentHealthSchema),
} as const;

/**
 * The knowledge adapter's own extra action: the actor sends ingest progress here (to the node in the progress
 * target) and the adapter passes it on through the running call's `tc.progress`.
 */
export const KnowledgeAdapterActions = {
  ingestProgress: defineAction(
    'adapters.knowledge.ingestProgress',
    ToolProgressEventSchema,
    z.object({ delivered: z.boolean() }),
  ),
} as const;
