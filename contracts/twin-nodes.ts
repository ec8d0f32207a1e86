import { z } from 'zod';

/**
 * A twin work-product node as the twin serves it (the spec names the record but not its fields; README documents
 * this shape). Item revisions carry item_key/revision/item_ref and a revision status; records (decisions, documents,
 * results) have them null.
 */
export const TwinNodeSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  node_type: z.string(),
  name: z.string(),
  properties: z.record(z.string(), z.unknown()),
  item_key: z.string().nullable(),
  revision: z.number().int().nullable(),
  item_ref: z.string().nullable(),
  revision_status: z.enum(['committed', 'draft', 'approved', 'rejected', 'abandoned']).nullable(),
  run_id: z.string().nullable(),
  phase: z.string().nullable(),
  gate: z.string().nullable(),
  change_reason: z.string().nullable(),
  draft_note: z.string().nullable(),
  status_reason: z.string().nullable(),
  author: z.string().nullable(),
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
  stale: z.boolean(),
  stale_reason: z.string().nullable(),
  object_key: z.string().nullable(),
  content_hash: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TwinNode = z.infer<typeof TwinNodeSchema>;

/** A typed edge between two nodes (REVISION_OF, SUPERSEDES, DERIVES_FROM, DEPENDS_ON, ...). */
export const TwinEdgeSchema = z.object({
  id: z.string(),
  src: z.string(),
  dst: z.string(),
  rel_type: z.string(),
  properties: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type TwinEdge = z.infer<typeof TwinEdgeSchema>;

/** Edge types the twin writes itself. */
export const EdgeTypes = {
  REVISION_OF: 'REVISION_OF',
  SUPERSEDES: 'SUPERSEDES',
  DERIVES_FROM: 'DERIVES_FROM',
  DEPENDS_ON: 'DEPENDS_ON',
  MOTIVATES: 'MOTIVATES',
  CONSTRAINS: 'CONSTRAINS',
  HAS_FILE: 'HAS_FILE',
} as const;

/** Who writes: the run (drafts), phase, author; outside a run every definition write is committed at once. */
export const WriterSchema = z.object({
  run_id: z.string().optional(),
  /** The run's ownership epoch the writing phase execution was started under: the write stands only while it holds. */
  run_epoch: z.number().int().optional(),
  phase: z.string().optional(),
  /** The attempt of `phase` writing (a draft records it: its gate commits, a retry closes, only its own attempt's drafts). */
  attempt: z.number().int().min(1).optional(),
  author: z.string().optional(),
});
export type Writer = z.infer<typeof WriterSchema>;
