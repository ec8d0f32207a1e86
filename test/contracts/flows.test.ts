import { describe, expect, it } from 'vitest';
import {
  AppliedPatchViewSchema,
  BillingSchema,
  CallerBodySchema,
  CallerOperationSchema,
  CancelRequestSchema,
  CandidateSchema,
  CapabilityViewSchema,
  ClaimRequestSchema,
  CompletenessViewSchema,
  CompletionVerdictSchema,
  ConflictPairSchema,
  DesignFlowSchema,
  FailureTaxonomySchema,
  IntentConstraintSchema,
  IntentModelSchema,
  IntentUnknownSchema,
  isValidPhaseCondition,
  ModelRouteSchema,
  PhaseGraphFieldsSchema,
  PhaseViewValueSchema,
  SuccessCriterionSchema,
  TokenCountsSchema,
  UsageBucketSchema,
  UsageTotalsSchema,
} from '../../contracts/flows.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe('flow enums', () => {
  it('hold the spec values', () => {
    expect(DesignFlowSchema.options).toEqual(['hardware_v1', 'mech_v1']);
    expect(BillingSchema.options).toEqual(['metered', 'subscription', 'mixed']);
    expect(CompletionVerdictSchema.options).toEqual([
      'COMPLETED_VERIFIED',
      'COMPLETED_WITH_WARNINGS',
      'PARTIALLY_COMPLETED',
      'BLOCKED',
      'IN_PROGRESS',
      'FAILED',
      'CANCELLED',
    ]);
    for (const v of ['SKIPPED', 'ELIGIBLE', 'BLOCKED', 'STALE', 'POTENTIALLY_INVALID'])
      expect(ok(PhaseViewValueSchema, v)).toBe(true);
    expect(FailureTaxonomySchema.options).toHaveLength(9);
    expect(ok(FailureTaxonomySchema, 'environment')).toBe(true);
  });
  it('reject values outside them', () => {
    expect(ok(DesignFlowSchema, 'elec_v1')).toBe(false);
    expect(ok(BillingSchema, 'free')).toBe(false);
    expect(ok(CompletionVerdictSchema, 'COMPLETED')).toBe(false);
    expect(ok(PhaseViewValueSchema, 'skipped')).toBe(false);
    expect(ok(FailureTaxonomySchema, 'network')).toBe(false);
  });
});

describe('IntentModelSchema', () => {
  const intent = {
    goal_type: 'design',
    goal_object: 'bracket',
    immediate_request: 'make a bracket',
    underlying_objective: 'hold a 2 kg motor',
    constraints: [{ category: 'mechanical', statement: 'max deflection 0.5 mm' }],
    success_criteria: [{ criterion: 'safety factor', metric: 'SF', target: '>= 2' }],
    preferences: ['aluminium'],
    assumptions: ['static load'],
    unknowns: [{ question: 'mounting holes?', blocking: true }],
    requested_deliverables: ['STEP model', 'FEA report'],
  };
  it('accepts the intent model', () => {
    expect(IntentModelSchema.parse(intent)).toEqual(intent);
    expect(ok(IntentConstraintSchema, intent.constraints[0])).toBe(true);
    expect(ok(SuccessCriterionSchema, { criterion: 'fits' })).toBe(true);
    expect(ok(IntentUnknownSchema, intent.unknowns[0])).toBe(true);
  });
  it('rejects an unknown without blocking flag and missing deliverables', () => {
    expect(ok(IntentModelSchema, { ...intent, unknowns: [{ question: 'q' }] })).toBe(false);
    const { requested_deliverables: _r, ...rest } = intent;
    expect(ok(IntentModelSchema, rest)).toBe(false);
    expect(ok(IntentConstraintSchema, { category: '', statement: 'x' })).toBe(false);
    expect(ok(SuccessCriterionSchema, { metric: 'SF' })).toBe(false);
    expect(ok(IntentUnknownSchema, { question: 'q', blocking: 'yes' })).toBe(false);
  });
});

describe('flow view objects', () => {
  it('accept the spec shapes', () => {
    expect(ok(CapabilityViewSchema, { flowId: 'mech_v1', versionId: null, profile: null, report: { gaps: [] } })).toBe(
      true,
    );
    expect(
      ok(AppliedPatchViewSchema, { runId: 'r1', versionId: 'v2', nextStep: 'approve the gate', rerun: ['fea'] }),
    ).toBe(true);
    expect(ok(CompletenessViewSchema, { productType: 'bracket', covered: ['cad'], missing: ['fea'] })).toBe(true);
    expect(ok(ConflictPairSchema, { aId: '1', aName: 'a', bId: '2', bName: 'b', detail: 'mass vs stiffness' })).toBe(
      true,
    );
    expect(ok(CandidateSchema, { mpn: 'LM317', manufacturer: 'TI', specs: { vout_max: 37 } })).toBe(true);
  });
  it('reject wrong types and missing fields', () => {
    expect(ok(CapabilityViewSchema, { flowId: 'mech_v1', versionId: null, profile: null })).toBe(false);
    expect(ok(AppliedPatchViewSchema, { runId: 'r1', versionId: 'v2', nextStep: 'x', rerun: 'fea' })).toBe(false);
    expect(ok(CompletenessViewSchema, { productType: 'bracket', covered: [] })).toBe(false);
    expect(ok(ConflictPairSchema, { aId: 1, aName: 'a', bId: '2', bName: 'b', detail: '' })).toBe(false);
    expect(ok(CandidateSchema, { mpn: '', manufacturer: 'TI', specs: {} })).toBe(false);
  });
});

describe('caller, cancel and claim bodies', () => {
  it('accept the spec shapes', () => {
    expect(ok(CallerBodySchema, { client: 'claude-code', model: 'anthropic:claude' })).toBe(true);
    expect(ok(CallerOperationSchema, { op: 'skip', phase: 'fea', rationale: 'loads unknown', value: true })).toBe(true);
    expect(CancelRequestSchema.parse({ reason: 'wrong flow' })).toEqual({ reason: 'wrong flow' });
    expect(ok(ClaimRequestSchema, { client: 'cli' })).toBe(true);
  });
  it('reject missing or empty required fields', () => {
    expect(ok(CallerBodySchema, { model: 'x' })).toBe(false);
    expect(ok(CallerOperationSchema, { op: 'skip', phase: 'fea', rationale: 'r' })).toBe(false);
    expect(ok(CancelRequestSchema, {})).toBe(false);
    expect(ok(ClaimRequestSchema, { client: '' })).toBe(false);
  });
});

describe('PhaseGraphFieldsSchema', () => {
  it('accepts all four fields unset, and set', () => {
    expect(PhaseGraphFieldsSchema.parse({})).toEqual({});
    const full = {
      depends_on: [],
      condition: "route == new_design and loads_known in [yes, partly] and budget_stated != 'no'",
      outcome: 'loads_known',
      model: 'ollama:llama3:8b',
    };
    expect(PhaseGraphFieldsSchema.parse(full)).toEqual(full);
    expect(ok(ModelRouteSchema, 'anthropic:claude-sonnet-4')).toBe(true);
  });
  it('rejects a model without provider, a malformed condition and a non-list depends_on', () => {
    expect(ok(PhaseGraphFieldsSchema, { model: 'gpt-4o' })).toBe(false);
    expect(ok(PhaseGraphFieldsSchema, { condition: 'route = new' })).toBe(false);
    expect(ok(PhaseGraphFieldsSchema, { condition: 'route == new or x == y' })).toBe(false);
    expect(ok(PhaseGraphFieldsSchema, { depends_on: 'concept' })).toBe(false);
  });
  it('parses the condition grammar of the spec', () => {
    expect(isValidPhaseCondition('target_maturity not in [prototype, production]')).toBe(true);
    expect(isValidPhaseCondition('loads_known == true')).toBe(true);
    expect(isValidPhaseCondition('in [a]')).toBe(false);
    expect(isValidPhaseCondition('a == ')).toBe(false);
  });
});

describe('usage totals', () => {
  const bucket = {
    tokens: { prompt: 10, completion: 5, cached_input: 2 },
    cost_usd: null,
    calls: 1,
    calls_without_usage: 0,
    calls_unpriced: 1,
    calls_subscription: 0,
    billing: 'metered',
  };
  it('accept a bucket with a null cost and totals with breakdowns', () => {
    expect(ok(TokenCountsSchema, bucket.tokens)).toBe(true);
    expect(ok(UsageBucketSchema, bucket)).toBe(true);
    const totals = { ...bucket, by_phase: { fea: bucket }, by_role: {}, by_model: { 'anthropic:claude': bucket } };
    expect(UsageTotalsSchema.parse(totals)).toEqual(totals);
  });
  it('reject negative tokens, an unknown billing and a missing breakdown', () => {
    expect(ok(TokenCountsSchema, { prompt: -1, completion: 0, cached_input: 0 })).toBe(false);
    expect(ok(UsageBucketSchema, { ...bucket, billing: 'prepaid' })).toBe(false);
    expect(ok(UsageTotalsSchema, { ...bucket, by_phase: {}, by_role: {} })).toBe(false);
  });
});
