import { z } from 'zod';

/**
 * Broadcast event: the twin committed a change others can see (an item's head moved, a record was written, results
 * were marked stale). Sent after the write's transaction, best effort (safe to lose: the gateway turns it into MCP
 * `notifications/resources/updated` for subscribed sessions). Drafts inside a run are not announced until committed.
 */
export const TWIN_CHANGED_EVENT = 'twin.changed';
export const TwinChangedSchema = z.object({
  project_id: z.string().nullable(),
  /** Items whose head moved, with the new head revision (1 = a new item). */
  items: z.array(z.object({ key: z.string(), revision: z.number().int() })),
  /** Nodes written or changed (records, stale marks), with their type when known. */
  nodes: z.array(z.object({ id: z.string(), node_type: z.string().optional() })),
});
export type TwinChanged = z.infer<typeof TwinChangedSchema>;

/** Broadcast event: the knowledge actor stored a new source (a duplicate ingest changes nothing and is not sent). */
export const KNOWLEDGE_CHANGED_EVENT = 'knowledge.changed';
export const KnowledgeChangedSchema = z.object({ source_id: z.string(), project_id: z.string().nullable() });
export type KnowledgeChanged = z.infer<typeof KnowledgeChangedSchema>;
