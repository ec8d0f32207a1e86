import { z } from 'zod';
import { ChecklistResponseSchema, CoverageResponseSchema } from './misc.ts';
import { ProjectIdSchema } from './projects.ts';

// Compliance over HTTP (`/v1/compliance/{project_id}/checklist|coverage|evidence`). The spec names the checklist and
// coverage responses' top fields (misc.ts); the item, evidence and breakdown fields are ours, documented in README
// ("Compliance").

/** Status of a checklist item: decided by current evidence, stale evidence only, none, or an approved waiver. */
export const ChecklistStatusSchema = z.enum(['verified', 'failed', 'unverified', 'stale', 'waived']);
export type ChecklistStatus = z.infer<typeof ChecklistStatusSchema>;

/** How an item is verified (README "Compliance" gives the rule that derives it from a constraint). */
export const VerificationMethodSchema = z.enum(['analysis', 'test', 'inspection', 'review', 'demonstration']);
export type VerificationMethod = z.infer<typeof VerificationMethodSchema>;

/** What a twin node is as evidence: a record type, or the head of a geometry or drawing item. */
export const EvidenceKindSchema = z.enum([
  'simulation_result',
  'test_result',
  'erc_report',
  'drc_report',
  'design_decision',
  'geometry',
  'technical_drawing',
]);
export type EvidenceKind = z.infer<typeof EvidenceKindSchema>;

/** Path parameters of the compliance routes and params of the twin's compliance actions. */
export const ComplianceProjectParamsSchema = z.object({ project_id: ProjectIdSchema });

const Stated = z.union([z.number(), z.string()]).nullable();

/** A twin node an item rests on: which node, which revision, whether it is stale, the value it states. */
export const EvidenceRefSchema = z.object({
  node_id: z.string(),
  kind: EvidenceKindSchema,
  name: z.string(),
  item_ref: z.string().nullable(),
  revision: z.number().int().nullable(),
  stale: z.boolean(),
  value: Stated,
  /** For a simulation result: the geometry revision (`KEY@n`) it analysed. */
  analysed_ref: z.string().nullable(),
});
export type EvidenceRef = z.infer<typeof EvidenceRefSchema>;

/** The constraint a requirement item is (one constraint of a current constraint set revision). */
export const RequirementSourceSchema = z.object({
  set_key: z.string(),
  set_ref: z.string(),
  set_node_id: z.string(),
  id: z.string(),
  metric: z.string(),
  operator: z.string(),
  limit: z.number().nullable(),
  unit: z.string(),
  severity: z.string(),
  message: z.string(),
  target_node_type: z.string().nullable(),
});

/** The standard clause a pack item is. */
export const PackSourceSchema = z.object({
  pack_id: z.string(),
  standard: z.string(),
  clause: z.string(),
});

/** An approved waiver: the constraint set revision that carries it (`waivers`), who wrote that revision, why. */
export const WaiverSchema = z.object({
  set_ref: z.string(),
  node_id: z.string(),
  approved_by: z.string().nullable(),
  reason: z.string(),
});

/** One checklist item: a requirement of the project or a clause of an applied pack. */
export const ChecklistItemSchema = z.object({
  /** `SET_KEY:ID` for a requirement, `PACK_ID:CLAUSE` for a pack item. */
  ref: z.string(),
  source: z.enum(['requirement', 'pack']),
  title: z.string(),
  discipline: z.string(),
  verification_method: VerificationMethodSchema,
  /** A requirement of severity error; pack items are advisory (false). */
  mandatory: z.boolean(),
  status: ChecklistStatusSchema,
  /** Current evidence decided the status (verified or failed). */
  evidenced: z.boolean(),
  value: Stated,
  note: z.string(),
  requirement: RequirementSourceSchema.nullable(),
  pack: PackSourceSchema.nullable(),
  /** The deciding evidence first, then the rest that states a value for the item, newest first. */
  evidence: z.array(EvidenceRefSchema),
  waiver: WaiverSchema.nullable(),
});
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

const Operator = z.enum(['<=', '<', '>=', '>', '==', '!=']);

/** How a pack item is evidenced: a record comparing a stated number, or a head stating a property that matches. */
export const PackCheckSchema = z.discriminatedUnion('check', [
  z.object({
    check: z.literal('compare'),
    kind: z.enum(['simulation_result', 'test_result', 'erc_report', 'drc_report']),
    metric: z.string().min(1),
    operator: Operator,
    limit: z.number(),
    unit: z.string().default(''),
  }),
  z.object({
    check: z.literal('states'),
    kind: z.enum(['geometry', 'technical_drawing']),
    property: z.string().min(1),
    /** A regular expression the stated text must match. */
    pattern: z.string().min(1),
  }),
]);

/** One clause of a checklist pack. */
export const PackItemSchema = z.object({
  clause: z.string().min(1),
  title: z.string().min(1),
  discipline: z.string().min(1),
  verification_method: VerificationMethodSchema,
  check: PackCheckSchema,
  note: z.string().default(''),
});

/** A checklist pack kept as data: a standard's clauses, the product types it applies to, where it is recognised. */
export const ChecklistPackSchema = z.object({
  id: z.string().regex(/^[A-Z0-9][A-Z0-9-]*$/),
  standard: z.string().min(1),
  title: z.string().min(1),
  product_types: z.array(z.string().min(1)).min(1),
  markets: z.array(z.string()),
  items: z.array(PackItemSchema).min(1),
});
export type ChecklistPack = z.infer<typeof ChecklistPackSchema>;

/** A pack applied to the project, as the checklist names it. */
export const AppliedPackSchema = ChecklistPackSchema.pick({
  id: true,
  standard: true,
  title: true,
  product_types: true,
  markets: true,
}).extend({ item_count: z.number().int().min(0) });

/** The project's prd: its current revision and the constraint set revisions it names, with those no longer current. */
export const CompliancePrdSchema = z.object({
  ref: z.string(),
  node_id: z.string(),
  requirement_refs: z.array(z.string()),
  outdated_refs: z.array(z.string()),
});

/** `GET /v1/compliance/{project_id}/checklist`: the spec's checklist response with typed items and what applied. */
export const ComplianceChecklistSchema = ChecklistResponseSchema.extend({
  items: z.array(ChecklistItemSchema),
  design_flows: z.array(z.string()),
  product_types: z.array(z.string()),
  packs: z.array(AppliedPackSchema),
  prd: CompliancePrdSchema.nullable(),
});
export type ComplianceChecklist = z.infer<typeof ComplianceChecklistSchema>;

/** Counts and coverage of a group of items. */
export const CoverageBreakdownSchema = z.object({
  total_items: z.number().int().min(0),
  evidenced_items: z.number().int().min(0),
  coverage_percent: z.number().min(0).max(100),
  statuses: z.record(ChecklistStatusSchema, z.number().int().min(0)),
});
export type CoverageBreakdown = z.infer<typeof CoverageBreakdownSchema>;

/** `GET /v1/compliance/{project_id}/coverage`: the spec's coverage response plus counts per status, discipline, method. */
export const ComplianceCoverageSchema = CoverageResponseSchema.extend({
  by_status: z.record(
    ChecklistStatusSchema,
    z.object({ count: z.number().int().min(0), percent: z.number().min(0).max(100) }),
  ),
  by_discipline: z.record(z.string(), CoverageBreakdownSchema),
  by_method: z.record(VerificationMethodSchema, CoverageBreakdownSchema),
});
export type ComplianceCoverage = z.infer<typeof ComplianceCoverageSchema>;

/** The geometry revision a simulation result analysed, and whether it is still its item's head. */
export const AnalysedGeometryPinSchema = z.object({
  node_id: z.string(),
  ref: z.string().nullable(),
  revision: z.number().int().nullable(),
  content_hash: z.string().nullable(),
  current: z.boolean(),
});

/** One evidence node with the checklist items it bears on. */
export const ComplianceEvidenceSchema = EvidenceRefSchema.omit({ value: true, analysed_ref: true }).extend({
  node_type: z.string(),
  created_at: z.string(),
  stale_reason: z.string().nullable(),
  analysed_geometry: AnalysedGeometryPinSchema.nullable(),
  /** Refs of the checklist items this node states a value for (whatever the outcome). */
  verifies: z.array(z.string()),
  note: z.string(),
});
export type ComplianceEvidence = z.infer<typeof ComplianceEvidenceSchema>;

/** `GET /v1/compliance/{project_id}/evidence`: every node the checklist reads as evidence, newest first. */
export const ComplianceEvidenceListSchema = z.object({
  project_id: z.string(),
  total: z.number().int().min(0),
  items: z.array(ComplianceEvidenceSchema),
});
export type ComplianceEvidenceList = z.infer<typeof ComplianceEvidenceListSchema>;
