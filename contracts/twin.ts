import { z } from 'zod';
import { FieldRangeSchema, MeshConvergenceRecordSchema } from './simulation.ts';

/** Item key such as `CAD-...`, `CS-...`, `PRD-...` (SPEC "Item"); never contains `@`. */
export const ItemKeySchema = z.string().regex(/^[^@\s]+$/, { message: 'expected an item key without @' });
export type ItemKey = z.infer<typeof ItemKeySchema>;

/** Revision reference `KEY@n` (SPEC "Item", head_ref; "Item write results", item_ref). */
export const ItemRefSchema = z.string().regex(/^[^@\s]+@[1-9][0-9]*$/, { message: 'expected KEY@n' });
export type ItemRef = z.infer<typeof ItemRefSchema>;

/** Revision number n of `KEY@n`, counted from 1. */
export const RevisionNumberSchema = z.number().int().min(1);

/** Item revision statuses (SPEC "Item revision statuses"). */
export const RevisionStatusSchema = z.enum(['committed', 'draft', 'approved', 'rejected', 'abandoned']);
export type RevisionStatus = z.infer<typeof RevisionStatusSchema>;

/**
 * An item as listed in history (SPEC "Item"). Head fields are null for an item that so far has only a draft; the
 * draft fields are present only with an open draft.
 */
export const ItemSchema = z.object({
  key: ItemKeySchema,
  item_type: z.string(),
  name: z.string(),
  project_id: z.string().nullable(),
  head_revision: RevisionNumberSchema.nullable(),
  head_node_id: z.string().nullable(),
  head_ref: ItemRefSchema.nullable(),
  /** The run that created the item and owns it (decision 0100: a run's items are its own); null when no run does. */
  origin_run_id: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  draft_revision: RevisionNumberSchema.optional(),
  draft_node_id: z.string().optional(),
  draft_ref: ItemRefSchema.optional(),
});
export type Item = z.infer<typeof ItemSchema>;

/** One revision of an item (SPEC "Item", a revision); run, gate and reason fields are null outside a flow run. */
export const ItemRevisionSchema = z.object({
  revision: RevisionNumberSchema,
  node_id: z.string(),
  name: z.string(),
  change_reason: z.string().nullable(),
  run_id: z.string().nullable(),
  author: z.string().nullable(),
  is_head: z.boolean(),
  adopted: z.boolean(),
  status: RevisionStatusSchema,
  change_set: z.string().nullable(),
  phase: z.string().nullable(),
  gate: z.string().nullable(),
  status_reason: z.string().nullable(),
});
export type ItemRevision = z.infer<typeof ItemRevisionSchema>;

/** The revision current for the caller `{revision, node_id, ref}` (SPEC "Item", result adds current). */
export const CurrentRevisionSchema = z.object({
  revision: RevisionNumberSchema,
  node_id: z.string(),
  ref: ItemRefSchema,
});
export type CurrentRevision = z.infer<typeof CurrentRevisionSchema>;

/** `twin.item_history` and `GET /v1/twin/items/{key}/revisions` result: item, revisions, `current` (SPEC "Item"). */
export const ItemHistoryResultSchema = ItemSchema.extend({
  revisions: z.array(ItemRevisionSchema),
  current: CurrentRevisionSchema,
});
export type ItemHistoryResult = z.infer<typeof ItemHistoryResultSchema>;

/**
 * Fields every definition-write result carries (SPEC "Item write results"). Inside a design-flow run the write is a
 * draft: revision_status 'draft' and a one-line draft_note. Loose: tool results add their own fields.
 */
export const ItemWriteResultSchema = z.looseObject({
  item_key: ItemKeySchema,
  revision: RevisionNumberSchema,
  item_ref: ItemRefSchema,
  revision_status: z.literal('draft').optional(),
  draft_note: z.string().optional(),
});
export type ItemWriteResult = z.infer<typeof ItemWriteResultSchema>;

/** Baseline summary (SPEC "Baseline summary"; reason default empty, source default manual). */
export const BaselineSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  approved_by: z.array(z.string()),
  gate_id: z.string().nullable(),
  item_count: z.number().int().min(0),
  member_count: z.number().int().min(0),
  project_id: z.string().nullable(),
  reason: z.string().default(''),
  run_id: z.string().nullable(),
  source: z.string().default('manual'),
});
export type BaselineSummary = z.infer<typeof BaselineSummarySchema>;

/** An item pinned in a baseline (SPEC "Baseline detail", items; name default empty). */
export const BaselineItemSchema = z.object({
  key: ItemKeySchema,
  item_type: z.string(),
  name: z.string().default(''),
  node_id: z.string(),
  ref: ItemRefSchema,
  revision: RevisionNumberSchema,
});
export type BaselineItem = z.infer<typeof BaselineItemSchema>;

/** Non-item baseline member `{entity_kind, entity_id, revision}` (SPEC "Baseline detail"); unrevisioned is null. */
export const BaselineMemberSchema = z.object({
  entity_kind: z.string(),
  entity_id: z.string(),
  revision: z.number().int().nullable(),
});
export type BaselineMember = z.infer<typeof BaselineMemberSchema>;

/** Baseline detail: the summary plus items and members (SPEC "Baseline detail"). */
export const BaselineDetailSchema = BaselineSummarySchema.extend({
  items: z.array(BaselineItemSchema),
  members: z.array(BaselineMemberSchema),
});
export type BaselineDetail = z.infer<typeof BaselineDetailSchema>;

/** Baseline list `{baselines, total}` (SPEC "Baseline list"). */
export const BaselineListSchema = z.object({
  baselines: z.array(BaselineSummarySchema),
  total: z.number().int().min(0),
});
export type BaselineList = z.infer<typeof BaselineListSchema>;

/** Item row of a baseline diff (SPEC "Baseline diff"); from side null for an added item, to side for a removed one. */
export const BaselineDiffItemSchema = z.object({
  key: ItemKeySchema,
  item_type: z.string(),
  name: z.string(),
  status: z.string(),
  from_ref: ItemRefSchema.nullable(),
  from_revision: RevisionNumberSchema.nullable(),
  to_ref: ItemRefSchema.nullable(),
  to_revision: RevisionNumberSchema.nullable(),
});
export type BaselineDiffItem = z.infer<typeof BaselineDiffItemSchema>;

/** Baseline diff (SPEC "Baseline diff"); b is null and b_is_current true when compared against the current view. */
export const BaselineDiffSchema = z.object({
  a: BaselineSummarySchema,
  b: BaselineSummarySchema.nullable(),
  b_is_current: z.boolean().default(false),
  counts: z.record(z.string(), z.number().int().min(0)),
  items: z.array(BaselineDiffItemSchema),
});
export type BaselineDiff = z.infer<typeof BaselineDiffSchema>;

/** Analysed ref `{key, revision, ref, current}` (SPEC "Analysed ref"). */
export const AnalysedRefSchema = z.object({
  key: ItemKeySchema,
  revision: RevisionNumberSchema,
  ref: ItemRefSchema,
  current: z.boolean(),
});
export type AnalysedRef = z.infer<typeof AnalysedRefSchema>;

/** Lower-case hex SHA-256 digest (SPEC field_content_hash, conversion hash). */
export const Sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, { message: 'expected a SHA-256 hex digest' });

/** Geometry a result was computed on, pinned by revision and hash (SPEC node metadata, analysed_geometry). */
export const AnalysedGeometrySchema = z.object({
  node_id: z.string(),
  revision: z.number().int().nullable(),
  name: z.string(),
  content_hash: z.string().nullable(),
});
export type AnalysedGeometry = z.infer<typeof AnalysedGeometrySchema>;

/**
 * Metadata of a simulation result node beyond its numbers (SPEC "Simulation result node metadata"). field_store_error
 * appears only when the upload failed; results recorded before fields were persisted have only the numbers, so every
 * field_* key but field_stored is optional. Loose: the numbers (max_von_mises_mpa, meshStats, ...) ride along.
 */
export const SimResultNodeMetadataSchema = z.looseObject({
  field_stored: z.boolean(),
  field_object_key: z.string().optional(),
  field_content_hash: Sha256HexSchema.optional(),
  field_size_bytes: z.number().int().min(0).optional(),
  field_format: z.string().optional(),
  field_analysis_type: z.string().optional(),
  field_quantities: z.array(z.string()).optional(),
  field_ranges: z.record(z.string(), FieldRangeSchema).optional(),
  field_store_error: z.string().optional(),
  analysed_geometry: AnalysedGeometrySchema.nullable().optional(),
  load_case_spec: z.record(z.string(), z.unknown()).nullable().optional(),
  fixtures: z.array(z.record(z.string(), z.unknown())).optional(),
  loads: z.array(z.record(z.string(), z.unknown())).optional(),
  mesh_convergence: MeshConvergenceRecordSchema.optional(),
  /** Why the result is suspect (load and fixture sets overlap, a zero peak; decision 0073), empty when sound. */
  suspect: z.array(z.string()).optional(),
  max_von_mises_mpa: z.number().optional(),
  max_displacement_mm: z.number().optional(),
  load_case: z.string().optional(),
  meshStats: z.record(z.string(), z.unknown()).optional(),
});
export type SimResultNodeMetadata = z.infer<typeof SimResultNodeMetadataSchema>;

/** Entry of `GET /v1/simulation/results` (SPEC "Simulation result listing entry"); loose, the numbers ride along. */
export const SimResultListingEntrySchema = z.looseObject({
  id: z.string(),
  hasField: z.boolean(),
  analysisType: z.string().nullable(),
  fieldQuantities: z.array(z.string()),
  fieldRanges: z.record(z.string(), FieldRangeSchema),
  analysedGeometry: AnalysedGeometrySchema.nullable(),
  loadCaseSpec: z.record(z.string(), z.unknown()).nullable(),
  fixtures: z.array(z.record(z.string(), z.unknown())),
  loads: z.array(z.record(z.string(), z.unknown())),
  meshConvergence: MeshConvergenceRecordSchema.nullable().optional(),
  /** Why the result is suspect (decision 0073): empty when sound or recorded before the check. */
  suspect: z.array(z.string()).default([]),
});
export type SimResultListingEntry = z.infer<typeof SimResultListingEntrySchema>;

/** BOM component availability (SPEC "BOM component", status). */
export const BomStatusSchema = z.enum(['available', 'low_stock', 'out_of_stock', 'alternate_needed']);
export type BomStatus = z.infer<typeof BomStatusSchema>;

/**
 * A BOM line's availability as served (decision 0070, amendment): a stated spec value, or `unknown` when no record
 * states one of them (no availability source, or a word that is not one): never a default `available`.
 */
export const BomAvailabilitySchema = z.enum([...BomStatusSchema.options, 'unknown']);
export type BomAvailability = z.infer<typeof BomAvailabilitySchema>;

/** Whether a BOM line's record states a price (decision 0070): `unpriced` lines have `unitPrice` null, never 0. */
export const BomPriceStatusSchema = z.enum(['priced', 'unpriced']);
export type BomPriceStatus = z.infer<typeof BomPriceStatusSchema>;

/**
 * BOM component, camelCase (SPEC "BOM component"): the first twelve fields required, the links string or null.
 * `unitPrice` is null when no price source states one, and `priceStatus` says so (decision 0070).
 */
export const BomComponentSchema = z.object({
  id: z.string(),
  designator: z.string(),
  partNumber: z.string(),
  description: z.string(),
  manufacturer: z.string(),
  quantity: z.number().int().min(0),
  unitPrice: z.number().min(0).nullable(),
  priceStatus: BomPriceStatusSchema,
  priceCurrency: z.string(),
  status: BomAvailabilitySchema,
  category: z.string(),
  projectId: z.string(),
  footprint: z.string().nullable().optional(),
  datasheetUrl: z.string().nullable().optional(),
  purchaseUrl: z.string().nullable().optional(),
  imageUrl: z.string().nullable().optional(),
  cadModelUrl: z.string().nullable().optional(),
});
export type BomComponent = z.infer<typeof BomComponentSchema>;

/**
 * BOM list `{components, total}`, answer of `GET /v1/bom` (SPEC "BOM list"), with `unpriced_count` (lines without a
 * price) and `unscoped_count` (with a project filter: lines left out for having no project), both of the whole list.
 */
export const BomListSchema = z.object({
  components: z.array(BomComponentSchema),
  total: z.number().int().min(0),
  unpriced_count: z.number().int().min(0).default(0),
  /** Lines of the whole list whose availability no record states (`status` unknown). */
  unknown_availability_count: z.number().int().min(0).default(0),
  unscoped_count: z.number().int().min(0).default(0),
});
export type BomList = z.infer<typeof BomListSchema>;

/** Multipart import form of `POST /v1/twin/import` (SPEC "Import form"): file required, description default empty. */
export const TwinImportFormSchema = z.object({
  file: z.file(),
  description: z.string().default(''),
  domain: z.string().optional(),
  project_id: z.string().optional(),
  wp_type: z.string().optional(),
});
export type TwinImportForm = z.infer<typeof TwinImportFormSchema>;

/**
 * Constraint create request (SPEC "Constraint create request"): projectId, name, metric, limit required; defaults
 * message '', operator '<=', severity 'error', verificationMethod ''. The spec lists no operator or severity values.
 */
export const ConstraintCreateRequestSchema = z.object({
  projectId: z.string().min(1),
  name: z.string().min(1),
  metric: z.string().min(1),
  limit: z.number(),
  expectedEvidence: z.string().nullable().optional(),
  message: z.string().default(''),
  operator: z.string().min(1).default('<='),
  severity: z.string().min(1).default('error'),
  targetNodeType: z.string().nullable().optional(),
  unit: z.string().nullable().optional(),
  verificationMethod: z.string().default(''),
});
export type ConstraintCreateRequest = z.infer<typeof ConstraintCreateRequestSchema>;

/** Constraint create response `{constraintId, setWorkProductId}` (SPEC "Constraint create request"). */
export const ConstraintCreateResponseSchema = z.object({
  constraintId: z.string(),
  setWorkProductId: z.string().nullable(),
});
export type ConstraintCreateResponse = z.infer<typeof ConstraintCreateResponseSchema>;
