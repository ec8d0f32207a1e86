import { z } from 'zod';
import { defineAction } from '../define.ts';
import { DecisionChannelSchema, GateFindingSchema, OverrideField } from '../approvals.ts';
import { DesignFlowSchema } from '../flows.ts';
import { ReviseKeySchema } from './twin-scope.actions.ts';
import { RequirementVerdictSchema } from '../requirement-verdicts.ts';
import { CallPrincipalSchema, StartedBySchema, StartSurfaceSchema } from '../principal.ts';

/** `POST /v1/runs` body: a design-flow request. `start: true` starts it at once (the only mode served). */
export const RunStartSchema = z.object({
  design_flow: z.string().min(1),
  project_id: z.string().min(1).nullable().optional(),
  goal: z.string().min(1).max(20_000).describe("what to design, in the requester's words"),
  context: z.record(z.string(), z.unknown()).default({}),
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  start: z.literal(true).default(true),
  /**
   * Other runs' items this run may revise (decision 0100: a run's items are its own): each must be an item of the
   * project, else 422 and nothing starts; the run's writes of these items draft their next revisions, and the runs
   * that approved them go stale once this run's gate commits them.
   */
  revise: z.array(ReviseKeySchema).max(50).default([]),
});
export type RunStart = z.infer<typeof RunStartSchema>;

/** The principal of a run start and its surface, as the runs actor's start actions take them (never a body field). */
export const StartedByField = {
  started_by: StartedBySchema.nullable().default(null),
  started_via: StartSurfaceSchema.nullable().default(null),
};

/** Who decides a gate and from which surface (SPEC "Decision record"). */
export const DecisionIdentitySchema = z.object({
  approver: z.string(),
  approver_verified: z.boolean(),
  surface: z.string(),
  on_behalf_of: z.string().nullable(),
  agent: z.string().nullable(),
  /** Where the decision was sent from, and the authenticated principal (decision 0061). */
  channel: DecisionChannelSchema.optional(),
  principal: z.string().nullable().optional(),
  /** The OAuth client of the decision's token, null without one (decision record `client_id`). */
  client_id: z.string().nullable().optional(),
});

export const RunDecideSchema = z.object({
  run_id: z.string(),
  decision: z.enum(['approve', 'reject', 'retry', 'rework']),
  reason: z.string().max(2000).default(''),
  to_phase: z.string().max(200).default(''),
  identity: DecisionIdentitySchema,
  /** Approve over the open gate's overridable findings (decision 0060), recorded in the decision. */
  ...OverrideField,
  /** Idempotency key: the same decision sent twice is applied once. */
  idem: z.string().min(1),
  /** The gate this decision is for (the approvals queue sends it): refused CONFLICT when that gate is no longer open. */
  gate_id: z.string().optional(),
});

/** A phase as the run view shows it. */
export const RunPhaseViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  attempt: z.number().int(),
  retries: z.number().int(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  summary: z.string().nullable(),
  deliverables: z.array(z.object({ type: z.string(), node_id: z.string(), ref: z.string().optional() })),
  failure: z.object({ kind: z.string(), message: z.string() }).nullable(),
  skip_reason: z.string().nullable(),
  gate: z.object({ name: z.string(), gate_id: z.string() }),
});

export const OpenGateViewSchema = z.object({
  phase: z.string(),
  gate_id: z.string(),
  name: z.string(),
  attempt: z.number().int(),
  findings: z.array(GateFindingSchema),
  ready: z.boolean(),
  stalled: z.boolean(),
  opened_at: z.string(),
  conflict: z.string().optional(),
  allowed_decisions: z.array(z.string()),
  /** Not ready only for overridable findings: approve with an override_reason goes on (decision 0060). */
  overridable: z.boolean().optional(),
  rework_targets: z.array(z.string()),
  retries_left: z.number().int(),
  reworks_left: z.number().int(),
});

/** A run as the gateway serves it (SPEC: every run carries project_id as a real field). */
export const RunViewSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  design_flow: z.string(),
  version_id: z.string(),
  content_hash: z.string(),
  status: z.string(),
  goal: z.string(),
  /** The other runs' items this run was started to revise (its request's `revise`; empty when none). */
  revise: z.array(z.string()),
  phases: z.array(RunPhaseViewSchema),
  gate: OpenGateViewSchema.nullable(),
  reworks: z.number().int(),
  decisions: z.array(z.record(z.string(), z.unknown())),
  ended: z.object({ status: z.string(), kind: z.string().optional(), message: z.string() }).nullable(),
  /** Who started the run (decision 0113): null when the start was not authenticated, or for runs started before. */
  started_by: StartedBySchema.nullable(),
  /** Where the run was started (null for runs started before it was recorded). */
  started_via: StartSurfaceSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RunView = z.infer<typeof RunViewSchema>;

/** `GET /v1/runs` answer, newest first; with a project filter `unscoped_count` counts the runs with no project. */
export const RunListSchema = z.object({
  runs: z.array(RunViewSchema),
  total: z.number().int(),
  unscoped_count: z.number().int().min(0).default(0),
});
export type RunList = z.infer<typeof RunListSchema>;

/**
 * `POST /v1/runs/{id}/cancel` body (SPEC "cancel request `{reason}`"; decision 0140): why the run is stopped, required,
 * at least one non-blank character and at most 2000 (the run gate decision's reason cap).
 */
export const RunCancelBodySchema = z.strictObject({
  reason: z
    .string()
    .max(2000)
    .regex(/\S/, 'a reason is required: say why the run is cancelled')
    .describe('why the run is stopped; recorded as the run end message'),
});
export type RunCancelBody = z.infer<typeof RunCancelBodySchema>;

/** Bus actions of the `runs` actor (one actor per run; the run id is the shard key). */
export const RunsActions = {
  /** The bus start: the request plus who started it, set by the gateway or the tool from the credential only. */
  start: defineAction(
    'runs.start',
    RunStartSchema.extend({ design_flow: DesignFlowSchema, ...StartedByField }),
    RunViewSchema,
  ),
  get: defineAction('runs.get', z.object({ run_id: z.string() }), RunViewSchema),
  list: defineAction(
    'runs.list',
    z.object({ project_id: z.string().optional(), limit: z.number().int().min(1).max(500).default(100) }),
    RunListSchema,
  ),
  decide: defineAction('runs.decide', RunDecideSchema, RunViewSchema),
  cancel: defineAction('runs.cancel', z.object({ run_id: z.string(), reason: z.string().default('') }), RunViewSchema),
  events: defineAction(
    'runs.events',
    z.object({ run_id: z.string() }),
    z.object({ events: z.array(z.record(z.string(), z.unknown())) }),
  ),
} as const;

/** `gates.evaluate`: the deterministic checks of a phase's gate. */
export const GateEvaluateSchema = z.object({
  run_id: z.string(),
  project_id: z.string().nullable(),
  phase: z.string(),
  attempt: z.number().int(),
  started_at: z.string().nullable(),
  required_deliverables: z.array(z.string()),
  enforce_deliverables: z.boolean(),
  enforce_constraints: z.boolean(),
  /** For the gate_check model, when routed: the phase's objective, its gate's criteria and the phase's summary. */
  objective: z.string().max(20_000).optional(),
  criteria: z.array(z.string().max(2_000)).max(100).optional(),
  summary: z.string().max(20_000).optional(),
  /** Who the run's model calls are made for (its starter, decision 0113): the gate_check call's ledger row names it. */
  principal: CallPrincipalSchema.nullable().optional(),
});
export type GateEvaluate = z.infer<typeof GateEvaluateSchema>;
export const GatesActions = {
  evaluate: defineAction(
    'gates.evaluate',
    GateEvaluateSchema,
    z.object({ findings: z.array(GateFindingSchema), ready: z.boolean() }),
  ),
  /**
   * `gates.verdicts`: every requirement of the run as the one evaluator judges it now on the run's evidence (waivers
   * included), blocking first: the table the approval item of its gate carries beside the findings (decision 0080).
   */
  verdicts: defineAction(
    'gates.verdicts',
    z.object({ run_id: z.string(), project_id: z.string().nullable() }),
    z.object({ verdicts: z.array(RequirementVerdictSchema) }),
  ),
} as const;
