import { z } from 'zod';

/** Design flows a run can start with, field `design_flow` of `POST /v1/runs` (SPEC "Projects, runs, flows"). */
export const DesignFlowSchema = z.enum(['hardware_v1', 'mech_v1']);
export type DesignFlow = z.infer<typeof DesignFlowSchema>;

/** One constraint of the intent model; the list is sorted by category (SPEC "Flow objects", intent model). */
export const IntentConstraintSchema = z.object({ category: z.string().min(1), statement: z.string().min(1) });
export type IntentConstraint = z.infer<typeof IntentConstraintSchema>;

/** A measurable success criterion of the intent model (SPEC "Flow objects"); metric and target make it measurable. */
export const SuccessCriterionSchema = z.object({
  criterion: z.string().min(1),
  metric: z.string().nullable().optional(),
  target: z.string().nullable().optional(),
});
export type SuccessCriterion = z.infer<typeof SuccessCriterionSchema>;

/** An unknown of the intent model, marked blocking or not (SPEC "Flow objects"). */
export const IntentUnknownSchema = z.object({ question: z.string().min(1), blocking: z.boolean() });
export type IntentUnknown = z.infer<typeof IntentUnknownSchema>;

/**
 * Intent model compiled by `POST /v1/design-flows/intent` (SPEC "Flow objects"). The spec names the contents but only
 * `requested_deliverables` by field name; the other names are this contract's, in the same snake_case.
 */
export const IntentModelSchema = z.object({
  goal_type: z.string(),
  goal_object: z.string(),
  immediate_request: z.string(),
  underlying_objective: z.string(),
  constraints: z.array(IntentConstraintSchema),
  success_criteria: z.array(SuccessCriterionSchema),
  preferences: z.array(z.string()),
  assumptions: z.array(z.string()),
  unknowns: z.array(IntentUnknownSchema),
  requested_deliverables: z.array(z.string()),
});
export type IntentModel = z.infer<typeof IntentModelSchema>;

/** Capability view `{flowId, versionId, profile, report}` (SPEC "Flow objects"); version and profile may be absent. */
export const CapabilityViewSchema = z.object({
  flowId: z.string(),
  versionId: z.string().nullable(),
  profile: z.string().nullable(),
  report: z.record(z.string(), z.unknown()),
});
export type CapabilityView = z.infer<typeof CapabilityViewSchema>;

/** Applied patch view `{runId, versionId, nextStep, rerun}` (SPEC "Flow objects"); rerun lists the phase ids re-run. */
export const AppliedPatchViewSchema = z.object({
  runId: z.string(),
  versionId: z.string(),
  nextStep: z.string(),
  rerun: z.array(z.string()),
});
export type AppliedPatchView = z.infer<typeof AppliedPatchViewSchema>;

/** Completeness view `{productType, covered, missing}` (SPEC "Flow objects"). */
export const CompletenessViewSchema = z.object({
  productType: z.string(),
  covered: z.array(z.string()),
  missing: z.array(z.string()),
});
export type CompletenessView = z.infer<typeof CompletenessViewSchema>;

/** Conflict pair `{aId, aName, bId, bName, detail}` (SPEC "Flow objects"). */
export const ConflictPairSchema = z.object({
  aId: z.string(),
  aName: z.string(),
  bId: z.string(),
  bName: z.string(),
  detail: z.string(),
});
export type ConflictPair = z.infer<typeof ConflictPairSchema>;

/** Component candidate `{mpn, manufacturer, specs}` (SPEC "Flow objects"); specs is a free map. */
export const CandidateSchema = z.object({
  mpn: z.string().min(1),
  manufacturer: z.string(),
  specs: z.record(z.string(), z.unknown()),
});
export type Candidate = z.infer<typeof CandidateSchema>;

/** Caller body `{client, model}` (SPEC "Flow objects"): who is calling; the model may be unknown. */
export const CallerBodySchema = z.object({ client: z.string().min(1), model: z.string().nullable().optional() });
export type CallerBody = z.infer<typeof CallerBodySchema>;

/** Caller operation `{op, phase, rationale, value}` (SPEC "Flow objects"); value is operation-specific. */
export const CallerOperationSchema = z.object({
  op: z.string().min(1),
  phase: z.string().nullable(),
  rationale: z.string(),
  value: z.unknown(),
});
export type CallerOperation = z.infer<typeof CallerOperationSchema>;

/** Cancel request `{reason}` (SPEC "Flow objects"). */
export const CancelRequestSchema = z.object({ reason: z.string() });
export type CancelRequest = z.infer<typeof CancelRequestSchema>;

/** Claim request `{client}` (SPEC "Flow objects"). */
export const ClaimRequestSchema = z.object({ client: z.string().min(1) });
export type ClaimRequest = z.infer<typeof ClaimRequestSchema>;

const conditionValue = String.raw`(?:"[^"]*"|'[^']*'|[^\s\[\],'"]+)`;
const conditionList = String.raw`\[\s*(?:${conditionValue}(?:\s*,\s*${conditionValue})*)?\s*\]`;
const conditionClause = new RegExp(
  String.raw`^[A-Za-z_][A-Za-z0-9_]*\s*(?:(?:==|!=)\s*${conditionValue}|(?:not\s+)?in\s*${conditionList})$`,
);

/** True when a phase condition fits the spec grammar: `f == v`, `!=`, `in [a, b]`, `not in [a, b]`, joined by `and`. */
export function isValidPhaseCondition(condition: string): boolean {
  const clauses = condition.trim().split(/\s+and\s+/);
  return clauses.every((clause) => conditionClause.test(clause.trim()));
}

/** `provider:model` route string (SPEC "Phase (graph) fields", "Model routing"); the model part may hold colons. */
export const ModelRouteSchema = z.string().regex(/^[A-Za-z0-9_.-]+:\S+$/, { message: 'expected provider:model' });
export type ModelRoute = z.infer<typeof ModelRouteSchema>;

/**
 * Graph fields of a flow phase (SPEC "Phase (graph) fields"). Unset depends_on means the previous phase; an empty list
 * makes a root. All four are omitted from the content hash when unset, hence optional rather than defaulted.
 */
export const PhaseGraphFieldsSchema = z.object({
  depends_on: z.array(z.string().min(1)).optional(),
  condition: z
    .string()
    .min(1)
    .refine(isValidPhaseCondition, { message: 'expected fact == v, !=, in [..] or not in [..] joined by and' })
    .optional(),
  outcome: z.string().min(1).optional(),
  model: ModelRouteSchema.optional(),
});
export type PhaseGraphFields = z.infer<typeof PhaseGraphFieldsSchema>;

/** Billing kind of a usage total (SPEC "Usage totals"). */
export const BillingSchema = z.enum(['metered', 'subscription', 'mixed']);
export type Billing = z.infer<typeof BillingSchema>;

/** Token counts of a usage total (SPEC "Usage totals", tokens). */
export const TokenCountsSchema = z.object({
  prompt: z.number().int().min(0),
  completion: z.number().int().min(0),
  cached_input: z.number().int().min(0),
});
export type TokenCounts = z.infer<typeof TokenCountsSchema>;

/**
 * One usage bucket (SPEC "Usage totals" without the breakdowns). cost_usd is null, never 0.0, when no call was priced;
 * a bucket with calls_without_usage or calls_unpriced above zero is a lower bound.
 */
export const UsageBucketSchema = z.object({
  tokens: TokenCountsSchema,
  cost_usd: z.number().min(0).nullable(),
  calls: z.number().int().min(0),
  calls_without_usage: z.number().int().min(0),
  calls_unpriced: z.number().int().min(0),
  calls_subscription: z.number().int().min(0),
  billing: BillingSchema,
});
export type UsageBucket = z.infer<typeof UsageBucketSchema>;

/** Usage totals with breakdowns by phase, role and model (SPEC "Usage totals"). */
export const UsageTotalsSchema = UsageBucketSchema.extend({
  by_phase: z.record(z.string(), UsageBucketSchema),
  by_role: z.record(z.string(), UsageBucketSchema),
  by_model: z.record(z.string(), UsageBucketSchema),
});
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

/** A usage bucket with no calls: zero tokens and `cost_usd: null` (never 0.0: nothing was priced). */
export function emptyUsageBucket(): UsageBucket {
  return {
    tokens: { prompt: 0, completion: 0, cached_input: 0 },
    cost_usd: null,
    calls: 0,
    calls_without_usage: 0,
    calls_unpriced: 0,
    calls_subscription: 0,
    billing: 'metered',
  };
}

/** Usage totals with empty breakdowns (no calls were made). */
export function emptyUsageTotals(): UsageTotals {
  return { ...emptyUsageBucket(), by_phase: {}, by_role: {}, by_model: {} };
}

/** Completion verdict of a run (SPEC "Completion verdict of a run"). */
export const CompletionVerdictSchema = z.enum([
  'COMPLETED_VERIFIED',
  'COMPLETED_WITH_WARNINGS',
  'PARTIALLY_COMPLETED',
  'BLOCKED',
  'IN_PROGRESS',
  'FAILED',
  'CANCELLED',
]);
export type CompletionVerdict = z.infer<typeof CompletionVerdictSchema>;

/**
 * Values of a phase view (SPEC "Phase view"): the named SKIPPED, ELIGIBLE, BLOCKED, STALE, POTENTIALLY_INVALID plus the
 * plain execution statuses and VALID, which the spec implies but does not name.
 */
export const PhaseViewValueSchema = z.enum([
  'PENDING',
  'RUNNING',
  'AWAITING_GATE',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'SKIPPED',
  'ELIGIBLE',
  'BLOCKED',
  'VALID',
  'STALE',
  'POTENTIALLY_INVALID',
]);
export type PhaseViewValue = z.infer<typeof PhaseViewValueSchema>;

/** Failure taxonomy of a phase that cannot run (SPEC "Errors", failure taxonomy). */
export const FailureTaxonomySchema = z.enum([
  'transient',
  'tool',
  'data',
  'capability',
  'design',
  'authorization',
  'environment',
  'reasoning',
  'unknown',
]);
export type FailureTaxonomy = z.infer<typeof FailureTaxonomySchema>;
