import { z } from 'zod';
import { defineAction } from '../define.ts';
import {
  ApprovalItemSchema,
  ApprovalKindSchema,
  ApprovalListResponseSchema,
  ApprovalRouteSchema,
  DecisionChannelSchema,
  GateTargetFields,
  HeldCallOutcomeSchema,
  LedgerKindSchema,
  LedgerStatusSchema,
  OverrideField,
  RecordedSurfaceSchema,
} from '../approvals.ts';
import { CallerSchema } from './adapters.actions.ts';

/**
 * Who is deciding (SPEC "Authentication / Gateway" 2-6): the authenticated principal (or `local:dashboard` /
 * `local:elicitation` unverified with auth off), the surface, and for agents the person they act for.
 */
export const DeciderSchema = z.object({
  approver: z.string(),
  approver_verified: z.boolean(),
  surface: RecordedSurfaceSchema,
  on_behalf_of: z.string().nullable(),
  agent: z.string().nullable(),
  /** Where the decision was sent from, and the authenticated principal (decision 0061). */
  channel: DecisionChannelSchema.optional(),
  principal: z.string().nullable().optional(),
  /** The OAuth client the decision was made through (the access token's client id); null without an OAuth token. */
  client_id: z.string().nullable().optional(),
});
export type Decider = z.infer<typeof DeciderSchema>;

/** A tool-approval ledger record (`tool:` items): a held call, or a request filed for a person. */
export const LedgerRecordSchema = z.object({
  id: z.string(),
  kind: LedgerKindSchema,
  status: LedgerStatusSchema,
  tool_id: z.string().nullable(),
  title: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  detail: z.record(z.string(), z.unknown()),
  project_id: z.string().nullable(),
  requested_by: z.string().nullable(),
  reason_held: z.string().nullable(),
  route: ApprovalRouteSchema.nullable(),
  source: z.string(),
  call_id: z.string().nullable(),
  session_id: z.string().nullable(),
  window_seconds: z.number().nullable(),
  deadline: z.string().nullable(),
  decision: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LedgerRecord = z.infer<typeof LedgerRecordSchema>;

/** `holds.request`: the registry asks for a person's approval of a held call and waits for the outcome. */
export const HoldRequestSchema = z.object({
  call_id: z.string(),
  tool_id: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  caller: CallerSchema,
  progress_node: z.string().optional(),
  reason_held: z.string(),
  /** The call carries a progress token (the window is the longer one, capped by an explicit gate timeout). */
  has_progress: z.boolean().default(false),
  timeout_seconds: z.number().int().optional(),
  /** The caller's own window (a chat's 1,800 s); it replaces the two defaults above. */
  hold_seconds: z.number().int().min(1).max(86_400).optional(),
});
export const HoldOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('approved'), approval_id: z.string(), decision: z.record(z.string(), z.unknown()) }),
  z.object({
    outcome: HeldCallOutcomeSchema,
    approval_id: z.string().optional(),
    route: ApprovalRouteSchema.optional(),
    where: z.string().optional(),
    held_seconds: z.number().optional(),
    window_seconds: z.number().optional(),
    message: z.string(),
  }),
]);
export type HoldOutcome = z.infer<typeof HoldOutcomeSchema>;

/** `holds.file`: a request for a person not tied to a waiting call (human authority, flow proposal/version/patch). */
export const HoldFileSchema = z.object({
  kind: LedgerKindSchema,
  tool_id: z.string().nullable().default(null),
  title: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  detail: z.record(z.string(), z.unknown()).default({}),
  project_id: z.string().nullable().default(null),
  requested_by: z.string().nullable().default(null),
});

export const HoldsActions = {
  request: defineAction('holds.request', HoldRequestSchema, HoldOutcomeSchema),
  file: defineAction('holds.file', HoldFileSchema, LedgerRecordSchema),
  get: defineAction('holds.get', z.object({ id: z.string() }), LedgerRecordSchema),
  list: defineAction(
    'holds.list',
    z.object({ status: z.enum(['pending', 'decided', 'all']).default('pending'), project_id: z.string().optional() }),
    z.object({ records: z.array(LedgerRecordSchema) }),
  ),
  decide: defineAction(
    'holds.decide',
    z.object({
      id: z.string(),
      decision: z.enum(['approve', 'reject']),
      reason: z.string().default(''),
      decider: DeciderSchema,
      /** What the approval did (a human-authority request's effect: a promotion, an applied change, a loop's next step). */
      outcome: z.record(z.string(), z.unknown()).optional(),
    }),
    LedgerRecordSchema,
  ),
} as const;

/** The unified queue's query (SPEC "Approvals" endpoints). */
export const ApprovalsQuerySchema = z.object({
  status: z.enum(['pending', 'decided', 'all']).default('pending'),
  project_id: z.string().optional(),
  kind: ApprovalKindSchema.optional(),
  /** Who is looking: decidable/not_decidable_reason depend on it (agents and human authority). */
  viewer: DeciderSchema.optional(),
});

export const ApprovalDecideSchema = z.object({
  id: z.string(),
  decision: z.enum(['approve', 'reject', 'retry', 'rework']),
  reason: z.string().max(2000).default(''),
  to_phase: z.string().max(200).default(''),
  decider: DeciderSchema,
  idem: z.string().min(1),
  ...OverrideField,
  /**
   * What the decider saw (README "Approvals queue"): the entity tags of `If-Match` (any may match; none = any state),
   * and a gate's phase and attempt. A decision whose target is not the item as it stands is refused CONFLICT.
   */
  target: z.object({ etags: z.array(z.string()).optional(), ...GateTargetFields }).optional(),
});
export type DecisionTarget = NonNullable<z.infer<typeof ApprovalDecideSchema>['target']>;

export const ApprovalsActions = {
  list: defineAction('approvals.list', ApprovalsQuerySchema, ApprovalListResponseSchema),
  get: defineAction(
    'approvals.get',
    z.object({ id: z.string(), viewer: DeciderSchema.optional() }),
    ApprovalItemSchema,
  ),
  decide: defineAction('approvals.decide', ApprovalDecideSchema, ApprovalItemSchema),
} as const;
