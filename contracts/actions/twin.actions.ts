import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import { StaleEvidenceSchema } from '../requirement-verdicts.ts';
import { ConstraintInForceSchema, EvidenceSchema } from '../requirements.ts';
import { TwinEdgeSchema, TwinNodeSchema, WriterSchema } from '../twin-nodes.ts';
import {
  BaselineDetailSchema,
  BaselineDiffSchema,
  BaselineListSchema,
  ItemHistoryResultSchema,
  ItemSchema,
} from '../twin.ts';

/** A file to store with a node: bytes already in the blob store (by hash) under a name. */
export const NodeFileSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().min(1),
  media_type: z.string(),
});

export const DefinitionWriteSchema = z.object({
  project_id: z.string().nullable(),
  item_type: z.string().min(1),
  name: z.string().min(1).max(300),
  properties: z.record(z.string(), z.unknown()).default({}),
  item_key: z.string().nullable().optional(),
  supersedes: z.string().nullable().optional(),
  change_reason: z.string().max(4000).nullable().optional(),
  file: NodeFileSchema.optional(),
  /** Pins: `KEY@n` or bare `KEY` this write depends on (DEPENDS_ON edges to the pinned revisions). */
  depends_on: z.array(z.string()).default([]),
  writer: WriterSchema.default({}),
});
export type DefinitionWriteParams = z.infer<typeof DefinitionWriteSchema>;

export const WriteResultSchema = z.object({
  node: TwinNodeSchema,
  item_key: z.string(),
  revision: z.number().int(),
  item_ref: z.string(),
  revision_status: z.literal('draft').optional(),
  draft_note: z.string().optional(),
  pinned: z.array(z.object({ ref: z.string(), node_id: z.string() })).default([]),
});

export const RecordNodeSchema = z.object({
  /** Pre-chosen node id, when a file's object key must name the node before it exists. */
  id: z.uuid().optional(),
  project_id: z.string().nullable(),
  node_type: z.string().min(1),
  name: z.string().min(1).max(300),
  properties: z.record(z.string(), z.unknown()).default({}),
  file: NodeFileSchema.optional(),
  /** Extra named blobs (e.g. the result field) stored under `work-products/<node_id>/<name>`. */
  extra_files: z.array(NodeFileSchema).default([]),
  depends_on: z.array(z.string()).default([]),
  edges: z
    .array(
      z.object({ rel_type: z.string(), dst: z.string(), properties: z.record(z.string(), z.unknown()).default({}) }),
    )
    .default([]),
  writer: WriterSchema.default({}),
});
export type RecordNodeParams = z.infer<typeof RecordNodeSchema>;

export const RefQuerySchema = z.object({
  node_id: z.string().optional(),
  item_key: z.string().optional(),
  run_id: z.string().optional(),
});
export const NodeWithEdgesSchema = TwinNodeSchema.extend({ edges: z.array(TwinEdgeSchema) });

/**
 * The run's ownership epoch a run's own twin write is made under (decision 0142): checked in the write's transaction by
 * the runs actor's fence (decision 0206); a stale epoch is refused (409 CONFLICT) with nothing written. Absent: the
 * write is not a run's (a person's, a test's) and is not fenced.
 */
const RunEpochSchema = z.number().int().optional();

export const CommitParamsSchema = z.object({
  run_id: z.string(),
  project_id: z.string().nullable(),
  gate_id: z.string(),
  gate_name: z.string(),
  approver: z.string(),
  reason: z.string().default(''),
  run_epoch: RunEpochSchema,
  /** The gate's phase and attempt: only their drafts are committed (with drafts that name no phase or attempt). Absent: every draft of the run. */
  phase: z.string().optional(),
  attempt: z.number().int().min(1).optional(),
});

/** Drafts a close takes: those `phase` wrote in an attempt before `before` (and its drafts that name no attempt). */
export const DraftScopeSchema = z.object({ phase: z.string(), before: z.number().int().min(1) });
export type DraftScope = z.infer<typeof DraftScopeSchema>;
export const CommitResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('committed'),
    committed: z.array(z.object({ key: z.string(), ref: z.string(), node_id: z.string() })),
    baseline_id: z.string(),
    stale_marked: z.array(z.string()),
  }),
  z.object({
    status: z.literal('conflict'),
    conflicts: z.array(z.object({ key: z.string(), base_revision: z.number(), head_revision: z.number() })),
  }),
]);

/** A node a run wrote, with its item's head revision now (read by the runs actor's lifecycle view and change list). */
export const RunRecordSchema = z.object({
  id: z.string(),
  item_key: z.string().nullable(),
  node_type: z.string(),
  name: z.string(),
  revision: z.number().int().nullable(),
  revision_status: z.string().nullable(),
  phase: z.string().nullable(),
  gate: z.string().nullable(),
  status_reason: z.string().nullable(),
  stale: z.boolean(),
  stale_reason: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  head_revision: z.number().int().nullable(),
  /** Why the item's head revision was written (its change reason: who revised it and why), when it is not this node. */
  head_change_reason: z.string().nullable().optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** Query actions built for the gates and runs actors' reads (they never read the twin's tables). */
const RunScopeSchema = z.object({ project_id: z.string().nullable(), run_id: z.string() });
const TwinRunQueries = {
  /** The required node types that have a record visible to the run (its drafts, or committed) since a time; a cad_model counts only with its file. */
  deliverablesSince: defineAction(
    'twin.deliverablesSince',
    RunScopeSchema.extend({ node_types: z.array(z.string()), since: z.string().nullable() }),
    z.object({ present: z.array(z.string()) }),
  ),
  /** What a gate checks constraints against, as the run sees the project: the constraints in force, the latest valid result of the current geometry, the geometry. */
  gateEvidence: defineAction(
    'twin.gateEvidence',
    RunScopeSchema,
    z.object({
      constraints: z.array(ConstraintInForceSchema),
      result: EvidenceSchema.nullable(),
      geometry: EvidenceSchema.nullable(),
      /** The latest verification record (a V&V test_result stating values) since the current geometry revision. */
      verification: EvidenceSchema.nullable(),
      /** Evidence that no longer counts (decision 0080): the latest result of an older revision of the run's geometry, or marked stale. */
      stale: z.array(StaleEvidenceSchema).optional(),
      /** The waivers the run's constraint set revisions state: set ref (`KEY@n`) -> requirement id -> reason. */
      waivers: z.record(z.string(), z.record(z.string(), z.string())).optional(),
    }),
  ),
  /** Every node the run wrote (oldest first) and the baselines its gate approvals recorded. */
  runRecords: defineAction(
    'twin.runRecords',
    z.object({ run_id: z.string() }),
    z.object({
      records: z.array(RunRecordSchema),
      baselines: z.array(z.object({ id: z.string(), gate_id: z.string().nullable() })),
    }),
  ),
  /** The project's committed evidence: the head geometry and the latest valid result analysing a head geometry. */
  currentEvidence: defineAction(
    'twin.currentEvidence',
    z.object({ project_id: z.string().nullable() }),
    z.object({
      result: EvidenceSchema.nullable(),
      geometry: EvidenceSchema.nullable(),
      verification: EvidenceSchema.nullable(),
    }),
  ),
} as const;

/** Bus actions of the `twin` actor. */
export const TwinActions = {
  writeDefinition: defineAction('twin.writeDefinition', DefinitionWriteSchema, WriteResultSchema),
  recordNode: defineAction(
    'twin.recordNode',
    RecordNodeSchema,
    z.object({ node: TwinNodeSchema, pinned: z.array(z.object({ ref: z.string(), node_id: z.string() })) }),
  ),
  getNode: defineAction('twin.getNode', RefQuerySchema, NodeWithEdgesSchema),
  itemHistory: defineAction(
    'twin.itemHistory',
    RefQuerySchema.extend({ project_id: z.string().optional() }),
    ItemHistoryResultSchema,
  ),
  commitChangeSet: defineAction('twin.commitChangeSet', CommitParamsSchema, CommitResultSchema),
  closeDrafts: defineAction(
    'twin.closeDrafts',
    z.object({
      run_id: z.string(),
      status: z.enum(['rejected', 'abandoned']),
      reason: z.string().min(1),
      run_epoch: RunEpochSchema,
      /** Absent: every draft of the run (it ended); else only these phases' drafts of earlier attempts. */
      drafts: z.array(DraftScopeSchema).max(200).optional(),
    }),
    z.object({ closed: z.number().int() }),
  ),
  listItems: defineAction(
    'twin.listItems',
    z.object({ project_id: z.string().optional(), item_type: z.string().optional() }),
    z.object({ items: z.array(ItemSchema) }),
  ),
  baselines: defineAction(
    'twin.baselines',
    z.object({
      project_id: z.string().optional(),
      limit: z.number().int().default(100),
      offset: z.number().int().default(0),
    }),
    BaselineListSchema,
  ),
  baseline: defineAction('twin.baseline', z.object({ id: z.string() }), BaselineDetailSchema),
  baselineDiff: defineAction(
    'twin.baselineDiff',
    z.object({ a: z.string(), b: z.string().optional() }),
    BaselineDiffSchema,
  ),
  query: defineAction(
    'twin.query',
    z.object({
      query: z.string().min(1).max(20_000),
      params: z.record(z.string(), z.unknown()).default({}),
      project_scope: z.string().optional(),
      run_id: z.string().optional(),
      max_rows: z.number().int().min(1).max(10_000).optional(),
    }),
    z.record(z.string(), z.unknown()),
  ),
  ...TwinRunQueries,
  health: defineAction('twin.health', z.object({}), ComponentHealthSchema),
} as const;
