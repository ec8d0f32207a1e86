import { z } from 'zod';
import { CallPrincipalSchema } from './principal.ts';
import {
  FailureClassSchema,
  FallbackReasonSchema,
  HarnessRoleSchema,
  ModelRefSchema,
  ProviderFamilySchema,
  ProviderIdSchema,
} from './harness.ts';
import { RouteSourceSchema } from './harness-config.ts';

/**
 * Wire shapes of the harness's `calls` part: one model call, family-neutral. Each provider family translates these to
 * and from its own wire format (OpenAI chat completions, Anthropic messages); nothing here names a vendor's field.
 */

/** A tool name as both families accept it (OpenAI function names and Anthropic tool names share this pattern). */
export const ToolNameSchema = z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, {
  message: 'a tool name is 1-128 letters, digits, _ or -',
});

/** A tool offered to the model: its JSON Schema input as the tool catalogue declares it. */
export const ToolOfferSchema = z.object({
  name: ToolNameSchema,
  description: z.string().max(10_000).default(''),
  input_schema: z.record(z.string(), z.unknown()),
});
export type ToolOffer = z.infer<typeof ToolOfferSchema>;

/** A tool call the model asked for: arguments parsed to an object (malformed JSON is a `data` failure, never passed on). */
export const ModelToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});
export type ModelToolCall = z.infer<typeof ModelToolCallSchema>;

/** One conversation message; `tool` carries the result of one earlier tool call, by its id. */
export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().default(''),
    tool_calls: z.array(ModelToolCallSchema).default([]),
  }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string().min(1),
    content: z.string(),
    is_error: z.boolean().default(false),
  }),
]);
export type ChatMessage = z.input<typeof ChatMessageSchema>;

/** Why the model stopped, normalised across families (`other`: content filter, refusal, pause, anything new). */
export const StopReasonSchema = z.enum(['end_turn', 'tool_use', 'max_tokens', 'other']);
export type StopReason = z.infer<typeof StopReasonSchema>;

/**
 * Tokens as the provider reported them. `prompt_tokens` is the whole prompt, cached part included (OpenAI's
 * prompt_tokens; Anthropic's input_tokens + cache_creation_input_tokens + cache_read_input_tokens), so
 * `cached_input_tokens` is always a part of it. `usage_reported=false`: the provider sent no usage; the counts are 0.
 */
export const CallUsageSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  cached_input_tokens: z.number().int().min(0),
  usage_reported: z.boolean(),
});
export type CallUsage = z.infer<typeof CallUsageSchema>;

/** What one model call answered. `model` is the model the provider says served it. */
export const CompletionSchema = z.object({
  text: z.string(),
  tool_calls: z.array(ModelToolCallSchema),
  stop_reason: StopReasonSchema,
  usage: CallUsageSchema,
  model: z.string(),
});
export type Completion = z.infer<typeof CompletionSchema>;

/**
 * A classified failure of one model call (never a raw SDK error). `retryable`: the same request may succeed later;
 * `rotate_credential`: the provider limited this credential (429), the next one may be used; `credential_dead`: the
 * provider refused the credential (401/403).
 */
export const HarnessCallFailureSchema = z.object({
  class: FailureClassSchema,
  status: z.number().int().optional(),
  message: z.string(),
  retryable: z.boolean(),
  rotate_credential: z.boolean().optional(),
  credential_dead: z.boolean().optional(),
  retry_after_ms: z.number().int().min(0).optional(),
});
export type HarnessCallFailure = z.infer<typeof HarnessCallFailureSchema>;

/**
 * An explicit provider: its configured id, family, base URL (absent: the family's first-party endpoint) and a
 * reference to its key (`env:NAME` reads the variable NAME; absent: a keyless endpoint such as a local server).
 * The key itself never travels on the bus.
 */
export const ProviderTargetSchema = z.object({
  provider: ProviderIdSchema,
  family: ProviderFamilySchema,
  base_url: z.url().optional(),
  api_key_ref: z
    .string()
    .regex(/^env:[A-Za-z_][A-Za-z0-9_]*$/, { message: 'an api key reference is env:<VARIABLE>' })
    .optional(),
  timeout_ms: z.number().int().min(1).max(3_600_000).default(120_000),
  idle_timeout_ms: z.number().int().min(1).max(3_600_000).default(60_000),
});
export type ProviderTarget = z.infer<typeof ProviderTargetSchema>;

/** Params of `harness.complete`: one model call for a role, on an explicit provider. */
export const HarnessCompleteParamsSchema = z.object({
  target: ProviderTargetSchema,
  model: z.string().min(1).max(200),
  messages: z.array(ChatMessageSchema).min(1),
  tools: z.array(ToolOfferSchema).default([]),
  max_tokens: z.number().int().min(1).max(1_000_000).default(4096),
  temperature: z.number().min(0).max(2).optional(),
  role: HarnessRoleSchema,
  phase: z.string().max(200).nullable().default(null),
  run_id: z.string().max(200).nullable().default(null),
  project_id: z.string().max(200).nullable().default(null),
  credential_id: z.string().max(200).nullable().default(null),
});
export type HarnessCompleteParams = z.infer<typeof HarnessCompleteParamsSchema>;

/** What `harness.complete` answers: the completion, or the classified failure; `record_id` names the ledger entry (null: refused before any request, nothing recorded). */
export const HarnessCompleteResultSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('ok'), record_id: z.string(), completion: CompletionSchema }),
  z.object({ outcome: z.literal('failed'), record_id: z.string().nullable(), failure: HarnessCallFailureSchema }),
]);
export type HarnessCompleteResult = z.infer<typeof HarnessCompleteResultSchema>;

/**
 * Params of `harness.call`: one model call for a role, routed by the harness (SPEC rule 11): `provider` with `model`
 * is the explicit per-call route, `phase_model` the running phase's own model; the project's routes, the routes table
 * and the durable selection follow. The run (else the conversation) pins the credential. Keys never travel here.
 */
export const HarnessCallFieldsSchema = z.object({
  role: HarnessRoleSchema,
  provider: ProviderIdSchema.optional(),
  model: z.string().min(1).max(200).optional(),
  phase_model: ModelRefSchema.optional(),
  phase: z.string().max(200).nullable().default(null),
  run_id: z.string().min(1).max(200).nullable().default(null),
  project_id: z.string().min(1).max(200).nullable().default(null),
  conversation_id: z.string().min(1).max(200).nullable().default(null),
  /** Who the call is made for (the run's starter, the chat request's principal): recorded in the ledger (decision 0113). */
  principal: CallPrincipalSchema.nullable().default(null),
  messages: z.array(ChatMessageSchema).min(1),
  tools: z.array(ToolOfferSchema).default([]),
  max_tokens: z.number().int().min(1).max(1_000_000).default(4096),
  temperature: z.number().min(0).max(2).optional(),
  timeout_ms: z.number().int().min(1).max(3_600_000).optional(),
  idle_timeout_ms: z.number().int().min(1).max(3_600_000).optional(),
});

/** A per-call route names both its provider and its model (the refinement of every routed request). */
export const perCallRouteComplete = (p: { provider?: string; model?: string }): boolean =>
  (p.provider === undefined) === (p.model === undefined);
export const PER_CALL_ROUTE_ISSUE = { message: 'a per-call route gives provider and model together', path: ['model'] };

export const HarnessCallParamsSchema = HarnessCallFieldsSchema.refine(perCallRouteComplete, PER_CALL_ROUTE_ISSUE);
export type HarnessCallParams = z.infer<typeof HarnessCallParamsSchema>;

/** One attempt of a routed call: its route, credential (by id) and ledger record; each attempt is recorded once. */
export const CallAttemptSchema = z.object({
  record_id: z.string(),
  provider: ProviderIdSchema,
  model: z.string(),
  source: RouteSourceSchema,
  credential_id: z.string(),
  outcome: z.enum(['ok', 'failed']),
  failure_class: FailureClassSchema.nullable(),
});
export type CallAttempt = z.infer<typeof CallAttemptSchema>;

/** The route that served a call; `fallback` is why it is not the primary (null: it is). */
export const ServedRouteSchema = z.object({
  provider: ProviderIdSchema,
  model: z.string(),
  source: RouteSourceSchema,
  credential_id: z.string(),
  fallback: FallbackReasonSchema.nullable(),
});

/** What `harness.call` answers: the completion and the route that served it, or the last classified failure. */
export const HarnessCallResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('ok'),
    record_id: z.string(),
    completion: CompletionSchema,
    route: ServedRouteSchema,
    attempts: z.array(CallAttemptSchema),
  }),
  z.object({
    outcome: z.literal('failed'),
    record_id: z.string().nullable(),
    failure: HarnessCallFailureSchema,
    attempts: z.array(CallAttemptSchema),
  }),
]);
export type HarnessCallResult = z.infer<typeof HarnessCallResultSchema>;
