import { z } from 'zod';
import { RequirementVerdictSchema } from './requirement-verdicts.ts';
import { GateFindingSchema } from './gate-findings.ts';

/** Approval item kinds (SPEC "Approval item (normalized)", field kind). */
export const ApprovalKindSchema = z.enum([
  'gate',
  'flow_proposal',
  'flow_version',
  'flow_patch',
  'tool_call',
  'human_authority',
  'design_change',
  'design_loop',
  'sketch',
  'drawing',
]);
export type ApprovalKind = z.infer<typeof ApprovalKindSchema>;

/** Id prefix of each kind (SPEC "Kind to id prefix and source"): the five ledger kinds share `tool:`. */
export const ApprovalIdPrefixByKind = {
  gate: 'gate:',
  tool_call: 'tool:',
  human_authority: 'tool:',
  flow_proposal: 'tool:',
  flow_version: 'tool:',
  flow_patch: 'tool:',
  design_change: 'change:',
  design_loop: 'design_loop:',
  sketch: 'sketch:',
  drawing: 'drawing:',
} as const satisfies Record<ApprovalKind, string>;

/** Normalized approval id `<prefix>:<native id>` (SPEC "Approval item", field id). */
export const ApprovalIdSchema = z.string().regex(/^(gate|tool|change|design_loop|sketch|drawing):.+$/, {
  message: 'expected <prefix>:<native id> with prefix gate, tool, change, design_loop, sketch or drawing',
});
export type ApprovalId = z.infer<typeof ApprovalIdSchema>;

/** Approval item statuses (SPEC "Approval item", field status; moves in "States / Approval item"). */
export const ApprovalStatusSchema = z.enum([
  'pending',
  'approved',
  'rejected',
  'expired',
  'canceled',
  'retried',
  'reworked',
]);
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

/** The four decisions a person can give (SPEC "Approval item", allowed_decisions). */
export const ApprovalDecisionSchema = z.enum(['approve', 'reject', 'retry', 'rework']);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** Where the question is put (SPEC "Approval item", field route; also held-call error data `route`). */
export const ApprovalRouteSchema = z.enum(['dashboard', 'elicitation']);
export type ApprovalRoute = z.infer<typeof ApprovalRouteSchema>;

export { GateFindingKindSchema, GateFindingSchema } from './gate-findings.ts';
export type { GateFinding, GateFindingKind } from './gate-findings.ts';

/** Values of the `X-Service-Surface` header (SPEC "Authentication / Gateway" rule 3); anything else is 422. */
export const SurfaceHeaderSchema = z.enum(['dashboard', 'cli', 'agent']);
export type SurfaceHeader = z.infer<typeof SurfaceHeaderSchema>;

/**
 * Recorded surface of a decision: the header values plus `unknown` (no header, older routes), `chat` (the
 * inline-decision route) and `mcp` (answered in an MCP client's own prompt, `elicitation/create`; docs/decisions/0020).
 */
export const RecordedSurfaceSchema = z.enum(['dashboard', 'cli', 'agent', 'unknown', 'chat', 'mcp']);
export type RecordedSurface = z.infer<typeof RecordedSurfaceSchema>;

/**
 * Where a decision was sent from (decision 0061), beside the spec's `surface`: the dashboard, the `service approvals`
 * CLI, the HTTP API (no surface header, an agent, or an older per-kind route), an MCP client's own prompt, or chat.
 */
export const DecisionChannelSchema = z.enum(['dashboard', 'cli', 'api', 'mcp', 'chat']);
export type DecisionChannel = z.infer<typeof DecisionChannelSchema>;

/** Decision record (SPEC "Decision record"); on_behalf_of and agent are only set for surface agent, so nullable. */
export const DecisionRecordSchema = z.object({
  decision: ApprovalDecisionSchema,
  reason: z.string(),
  approver: z.string(),
  approver_verified: z.boolean(),
  surface: RecordedSurfaceSchema,
  on_behalf_of: z.string().nullable(),
  agent: z.string().nullable(),
  decided_at: z.string(),
  /** Why a person approved a gate over its overridable findings (decision 0060); absent when nothing was overridden. */
  override_reason: z.string().optional(),
  /** Where it was sent from (decision 0061); absent on records older than it. */
  channel: DecisionChannelSchema.optional(),
  /** The authenticated principal, null when the gateway authenticates nobody (decision 0061). */
  principal: z.string().nullable().optional(),
  /**
   * The OAuth client the approver decided through (the access token's `client_id`, e.g. the dashboard's public
   * client); null when the decision came with no OAuth token; absent on records older than it.
   */
  client_id: z.string().nullable().optional(),
  /**
   * What an approved human-authority request did (README "Human-authority requests"): the promotion's result, the
   * revision an engineering change made, or the design loop's next iteration.
   */
  outcome: z.record(z.string(), z.unknown()).optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

/**
 * One decision of a run's gates, as the gate item's `detail.decisions` lists them (every phase, oldest first; decision
 * 0061): the decision record with the gate it decided.
 */
export const GateDecisionEntrySchema = DecisionRecordSchema.extend({
  phase: z.string(),
  gate_id: z.string(),
  attempt: z.number().int(),
  to_phase: z.string(),
});
export type GateDecisionEntry = z.infer<typeof GateDecisionEntrySchema>;

/**
 * Approval item, normalized (SPEC "Approval item (normalized)"). Only kind, status and title are marked required
 * in the spec (id always exists); the unmarked fields are optional, and summary/decidable carry the spec's defaults.
 */
export const ApprovalItemSchema = z.object({
  id: ApprovalIdSchema,
  kind: ApprovalKindSchema,
  status: ApprovalStatusSchema,
  title: z.string(),
  summary: z.string().default(''),
  project_id: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
  deadline: z.string().nullable().optional(),
  route: ApprovalRouteSchema.nullable().optional(),
  requested_by: z.string().nullable().optional(),
  reason_held: z.string().nullable().optional(),
  findings: z.array(GateFindingSchema).optional(),
  allowed_decisions: z.array(ApprovalDecisionSchema).optional(),
  rework_targets: z.array(z.string()).optional(),
  reason_required_for: z.array(ApprovalDecisionSchema).optional(),
  decidable: z.boolean().default(false),
  not_decidable_reason: z.string().nullable().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
  decision: DecisionRecordSchema.nullable().optional(),
  /**
   * A pending gate item: every requirement of the run as the one evaluator judges it now (decision 0080, amendment),
   * blocking first, waived ones `waived`; the findings name only those that do not pass. Absent on other kinds, on
   * decided gates, and while the gates actor cannot be reached.
   */
  verdicts: z.array(RequirementVerdictSchema).optional(),
  /** The item's entity tag (also the `ETag` header of `GET /v1/approvals/{id}`): changes when its state or open gate changes. */
  etag: z.string().optional(),
});
export type ApprovalItem = z.infer<typeof ApprovalItemSchema>;

/**
 * The gate instance a decision names (README "Approvals queue"): `phase` and `attempt` of the gate the person saw
 * (`detail.phase`, `detail.attempt`). Optional; a decision naming a gate that is not the open one is refused 409.
 */
export const GateTargetFields = {
  phase: z.string().min(1).max(200).optional(),
  attempt: z.number().int().min(1).optional(),
};

/**
 * Approve over a gate's overridable findings (decision 0060): the person's reason, recorded in the decision. Only
 * with approve on a gate whose blocking findings are all overridable (else 409, or 422 on a gate with none).
 */
export const OverrideField = { override_reason: z.string().max(2000).optional() };

/** Approval list response (SPEC "Approval list response"); unscoped_count: items left out for having no project. */
export const ApprovalListResponseSchema = z.object({
  items: z.array(ApprovalItemSchema),
  unscoped_count: z.number().int().min(0).default(0),
});
export type ApprovalListResponse = z.infer<typeof ApprovalListResponseSchema>;

/**
 * Decision body of the unified route `POST /v1/approvals/{id}/decision` (SPEC "Decision body (unified route)").
 * Unknown keys are stripped: `reviewer`, `approved_by`, `approvedBy` never reach the decision (the route logs them).
 */
export const DecisionBodySchema = z.object({
  decision: ApprovalDecisionSchema,
  reason: z.string().optional(),
  to_phase: z.string().optional(),
  ...GateTargetFields,
  ...OverrideField,
});
export type DecisionBody = z.infer<typeof DecisionBodySchema>;

/** Run gate decision body, `POST /v1/runs/{id}/approval` (SPEC "Run gate decision body"; limits 2000 and 200 chars). */
export const RunGateDecisionBodySchema = z.object({
  decision: ApprovalDecisionSchema,
  reason: z.string().max(2000).default(''),
  to_phase: z.string().max(200).default(''),
  ...GateTargetFields,
  ...OverrideField,
});
export type RunGateDecisionBody = z.infer<typeof RunGateDecisionBodySchema>;

/** Change proposal status values (SPEC "Assistant proposal decision body"). */
export const ChangeStatusSchema = z.enum(['pending', 'approved', 'rejected', 'applied', 'expired']);
export type ChangeStatus = z.infer<typeof ChangeStatusSchema>;

/** Assistant proposal decision body (SPEC "Assistant proposal decision body"): all four fields required. */
export const ProposalDecisionBodySchema = z.object({
  change_id: z.uuid(),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().min(1),
  reviewer: z.string().min(1),
});
export type ProposalDecisionBody = z.infer<typeof ProposalDecisionBodySchema>;

/** Design-loop approval body `{approvedBy}`, required (SPEC "Other approval bodies"). */
export const DesignLoopApprovalBodySchema = z.object({ approvedBy: z.string() });
export type DesignLoopApprovalBody = z.infer<typeof DesignLoopApprovalBodySchema>;

/** Sketch and technical-drawing approval body `{approved_by: string or null}` (SPEC "Other approval bodies"). */
export const NodeApprovalBodySchema = z.object({ approved_by: z.string().nullable().optional() });
export type NodeApprovalBody = z.infer<typeof NodeApprovalBodySchema>;

/** Answer of sketch and drawing approvals `{node_id, approved, approved_at}` (SPEC "Other approval bodies"). */
export const NodeApprovalResultSchema = z.object({
  node_id: z.string(),
  approved: z.boolean(),
  approved_at: z.string(),
});
export type NodeApprovalResult = z.infer<typeof NodeApprovalResultSchema>;

/** Promotion level; the spec does not type it, so a string or a number is accepted. */
export const PromotionLevelSchema = z.union([z.string().min(1), z.number()]);
export type PromotionLevel = z.infer<typeof PromotionLevelSchema>;

/** Attempt-promotion request (SPEC "Other approval bodies"): k default 1, reject default false. */
export const AttemptPromotionRequestSchema = z.object({
  projectId: z.string().min(1),
  level: PromotionLevelSchema,
  requiredClaimIds: z.array(z.string()),
  k: z.number().default(1),
  reject: z.boolean().default(false),
  comment: z.string().nullable().optional(),
});
export type AttemptPromotionRequest = z.infer<typeof AttemptPromotionRequestSchema>;

/** One required-claim result of a promotion attempt; the spec does not show its fields, so any object. */
export const RequiredClaimResultSchema = z.record(z.string(), z.unknown());
export type RequiredClaimResult = z.infer<typeof RequiredClaimResultSchema>;

/** Attempt-promotion response (SPEC "Other approval bodies"); ids, reason and comment are null when not applicable. */
export const AttemptPromotionResponseSchema = z.object({
  gateId: z.string().nullable(),
  level: PromotionLevelSchema,
  promoted: z.boolean(),
  blockedReason: z.string().nullable(),
  decidedBy: z.string().nullable(),
  comment: z.string().nullable(),
  results: z.array(RequiredClaimResultSchema),
});
export type AttemptPromotionResponse = z.infer<typeof AttemptPromotionResponseSchema>;

/**
 * Tool-approval ledger statuses (SPEC "States": awaiting_approval shows as pending; an unanswered hold is expired,
 * a closed one canceled; a restart orphans awaiting records as failed).
 */
export const LedgerStatusSchema = z.enum([
  'awaiting_approval',
  'approved',
  'rejected',
  'expired',
  'canceled',
  'failed',
]);
export type LedgerStatus = z.infer<typeof LedgerStatusSchema>;

/** Approval kinds whose source is the tool-approval ledger, id prefix `tool:` (SPEC "Kind to id prefix and source"). */
export const LedgerKindSchema = ApprovalKindSchema.extract([
  'tool_call',
  'human_authority',
  'flow_proposal',
  'flow_version',
  'flow_patch',
]);
export type LedgerKind = z.infer<typeof LedgerKindSchema>;

/** How an unapproved held call ends (SPEC "Held-call outcomes"); none is retryable without a person acting first. */
export const HeldCallOutcomeSchema = z.enum(['rejected', 'timed_out', 'cancelled', 'not_configured']);
export type HeldCallOutcome = z.infer<typeof HeldCallOutcomeSchema>;
