import { z } from 'zod';
import { TwinEdgeSchema, TwinNodeSchema } from './twin-nodes.ts';
import { ItemKeySchema, ItemRefSchema, RevisionNumberSchema, RevisionStatusSchema } from './twin.ts';

// Read views of the twin served over HTTP (`/v1/twin/...`). The spec names these routes but not their shapes beyond
// the records it lists; README ("Twin over HTTP") documents each shape chosen here.

/** Page of a listing: `limit` 1..1000 (default 100) and `offset` from 0, coerced from the query string. */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Optional project filter of twin listings; absent means every project (and the unscoped items). */
export const ProjectFilterSchema = z.object({ project_id: z.string().min(1).max(200).optional() });

/** One current item revision (the head) in the current view; its type is the group it is listed under. */
export const CurrentViewEntrySchema = z.object({
  key: ItemKeySchema,
  name: z.string(),
  revision: RevisionNumberSchema,
  ref: ItemRefSchema,
  node_id: z.string(),
  stale: z.boolean(),
  updated_at: z.string(),
});
export type CurrentViewEntry = z.infer<typeof CurrentViewEntrySchema>;

/** `GET /v1/twin/current-view`: the head revision of every item, grouped by item type (types, names, keys in byte order). */
export const CurrentViewSchema = z.object({
  project_id: z.string().nullable(),
  item_count: z.number().int().min(0),
  by_type: z.record(z.string(), z.array(CurrentViewEntrySchema)),
  /** With a project filter: the items left out because they record no project (as the approvals list). */
  unscoped_count: z.number().int().min(0).default(0),
});
export type CurrentView = z.infer<typeof CurrentViewSchema>;

/** One side of an item diff: the revision compared. */
export const DiffSideSchema = z.object({
  revision: RevisionNumberSchema,
  ref: ItemRefSchema,
  node_id: z.string(),
  name: z.string(),
  status: RevisionStatusSchema,
  content_hash: z.string().nullable(),
  created_at: z.string(),
});

/** One property that differs: a dotted path (`constraints.0.limit`), its kind of change and both values. */
export const PropertyChangeSchema = z.object({
  path: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  from: z.unknown().optional(),
  to: z.unknown().optional(),
});
export type PropertyChange = z.infer<typeof PropertyChangeSchema>;

/**
 * `GET /v1/twin/items/{key}/diff?from=&to=`: the properties of two revisions compared leaf by leaf (objects and
 * arrays descended, arrays by index); name and stored file compared apart.
 */
export const ItemDiffSchema = z.object({
  key: ItemKeySchema,
  item_type: z.string(),
  from: DiffSideSchema,
  to: DiffSideSchema,
  name_changed: z.boolean(),
  file_changed: z.boolean(),
  counts: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int() }),
  changes: z.array(PropertyChangeSchema),
});
export type ItemDiff = z.infer<typeof ItemDiffSchema>;

/** Query of the item diff: revision numbers; `to` defaults to the head, `from` to the revision before `to`. */
export const ItemDiffQuerySchema = z.object({
  from: z.coerce.number().int().min(1).optional(),
  to: z.coerce.number().int().min(1).optional(),
});

/** An engineering entity (intent, stakeholder need, objective) as the derived prd lists it. */
export const PrdEntitySchema = z.object({
  key: ItemKeySchema,
  ref: ItemRefSchema,
  node_id: z.string(),
  name: z.string(),
  statement: z.string(),
});

/** One row of the derived prd's requirement table: a constraint of a current constraint set. */
export const RequirementRowSchema = z.object({
  set_key: ItemKeySchema,
  set_ref: ItemRefSchema,
  set_name: z.string(),
  id: z.string(),
  metric: z.string(),
  operator: z.string(),
  limit: z.number().nullable(),
  unit: z.string(),
  severity: z.string(),
  verification_method: z.string(),
  target_node_type: z.string().nullable(),
  message: z.string(),
});
export type RequirementRow = z.infer<typeof RequirementRowSchema>;

/**
 * `GET /v1/twin/items/{KEY@n}/prd`: the prose of that prd revision plus the project's current intent, needs,
 * objectives and the requirement table built from its current constraint sets (requirement values live only there).
 */
export const DerivedPrdSchema = z.object({
  project_id: z.string().nullable(),
  item_key: ItemKeySchema,
  revision: RevisionNumberSchema,
  ref: ItemRefSchema,
  node_id: z.string(),
  name: z.string(),
  is_head: z.boolean(),
  prose: z.string(),
  requirement_refs: z.array(z.string()),
  intent: z.array(PrdEntitySchema),
  needs: z.array(PrdEntitySchema),
  objectives: z.array(PrdEntitySchema),
  requirements: z.array(RequirementRowSchema),
});
export type DerivedPrd = z.infer<typeof DerivedPrdSchema>;

/** The project's prd rendered as markdown (`GET /v1/twin/projects/{project_id}/prd` sends `markdown` as the body). */
export const PrdMarkdownSchema = z.object({ project_id: z.string(), ref: ItemRefSchema, markdown: z.string() });

/** A node named at the other end of an edge. */
export const NodeSummarySchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  node_type: z.string(),
  name: z.string(),
  item_ref: z.string().nullable(),
});
export type NodeSummary = z.infer<typeof NodeSummarySchema>;

/** `GET /v1/twin/nodes`: visible nodes (no open drafts, no rejected or abandoned revisions), newest first. */
export const NodeListSchema = z.object({ nodes: z.array(TwinNodeSchema), total: z.number().int().min(0) });

/** `GET /v1/twin/nodes/{id}`: the node with its edges; assemblies add `assemblyParts` from their properties. */
export const NodeViewSchema = TwinNodeSchema.extend({
  edges: z.array(TwinEdgeSchema),
  assemblyParts: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type NodeView = z.infer<typeof NodeViewSchema>;

/** An edge seen from one node: its direction from that node and the node at the other end. */
export const RelationshipSchema = TwinEdgeSchema.extend({ direction: z.enum(['out', 'in']), other: NodeSummarySchema });

/** `GET /v1/twin/relationships?node_id=[&rel_type=]`. */
export const RelationshipListSchema = z.object({
  node_id: z.string(),
  relationships: z.array(RelationshipSchema),
  total: z.number().int().min(0),
});

/** An edge between two work products with both ends named. */
export const LinkSchema = TwinEdgeSchema.extend({ src_node: NodeSummarySchema, dst_node: NodeSummarySchema });

/** `GET /v1/twin/links?project_id=`: edges between work products (the revision chain edges are left out). */
export const LinkListSchema = z.object({ links: z.array(LinkSchema), total: z.number().int().min(0) });

/** A revision as the revision index and the versions list show it. */
export const RevisionEntrySchema = z.object({
  revision: RevisionNumberSchema,
  ref: ItemRefSchema,
  node_id: z.string(),
  status: RevisionStatusSchema,
  created_at: z.string(),
});

/** `GET /v1/twin/revision-index?project_id=`: a page of items (by type, name) with every revision's ref and status. */
export const RevisionIndexSchema = z.object({
  project_id: z.string().nullable(),
  items: z.array(
    z.object({
      key: ItemKeySchema,
      item_type: z.string(),
      name: z.string(),
      head_revision: RevisionNumberSchema,
      head_ref: ItemRefSchema,
      revisions: z.array(RevisionEntrySchema),
    }),
  ),
  total: z.number().int().min(0),
});
export type RevisionIndex = z.infer<typeof RevisionIndexSchema>;

/** `GET /v1/twin/nodes/{id}/versions`: every version of the node's item, oldest first; a record is its only version. */
export const NodeVersionsSchema = z.object({
  node_id: z.string(),
  item_key: z.string().nullable(),
  versions: z.array(
    z.object({
      node_id: z.string(),
      revision: z.number().int().nullable(),
      ref: z.string().nullable(),
      status: RevisionStatusSchema.nullable(),
      is_head: z.boolean(),
      name: z.string(),
      content_hash: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});
export type NodeVersions = z.infer<typeof NodeVersionsSchema>;
