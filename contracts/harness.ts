import { z } from 'zod';

/**
 * The agent harness's shared vocabulary (SPEC part 6 and "Chat and harness rules"): roles, provider families, a model
 * reference, failure classes and the record of one model call. The harness actor's own wire shapes build on these
 * (contracts/harness-*.ts).
 */

/** Roles a model serves (rule 11); `phase_brain:<discipline>` narrows the phase brain to one discipline. */
export const HARNESS_BASE_ROLES = [
  'flow_generator',
  'phase_brain',
  'gate_check',
  'classification',
  'summarisation',
  'chat',
] as const;
export const HarnessRoleSchema = z
  .string()
  .regex(/^(flow_generator|phase_brain(:[a-z0-9_-]{1,64})?|gate_check|classification|summarisation|chat)$/, {
    message: `a role is one of ${HARNESS_BASE_ROLES.join(', ')} or phase_brain:<discipline>`,
  });
export type HarnessRole = z.infer<typeof HarnessRoleSchema>;

/** The role `phase_brain:<discipline>` falls back to within each routing source (`phase_brain`), or null for a base role. */
export const baseRoleOf = (role: string): string | null => (role.startsWith('phase_brain:') ? 'phase_brain' : null);

/** The variable that routes a role: `SERVICE_ROUTE_` + the role upper-cased, `:` and `-` replaced by `_`. */
export const routeVarName = (role: string): string => `SERVICE_ROUTE_${role.toUpperCase().replace(/[:-]/g, '_')}`;

/** `provider:model` split at its first colon (the model may hold colons, as in `llama3.1:8b`), trimmed; else undefined. */
export function splitRoute(text: string): { provider: string; model: string } | undefined {
  const at = text.indexOf(':');
  const provider = at > 0 ? text.slice(0, at).trim() : '';
  const model = at > 0 ? text.slice(at + 1).trim() : '';
  return provider && model ? { provider, model } : undefined;
}

/** Provider families, each on its own wire format: OpenAI chat completions (any base URL) and Anthropic messages. */
export const ProviderFamilySchema = z.enum(['openai_compatible', 'anthropic']);
export type ProviderFamily = z.infer<typeof ProviderFamilySchema>;

/** A provider's configured name (`openai`, `anthropic`, `ollama`, ...) and one of its models. */
export const ProviderIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, { message: 'a provider id is lower case' });
export const ModelRefSchema = z.object({ provider: ProviderIdSchema, model: z.string().min(1).max(200) });
export type ModelRef = z.infer<typeof ModelRefSchema>;

/** How a failed model or tool call is classified (transient may be retried; the rest are reported as they are). */
export const FailureClassSchema = z.enum([
  'transient',
  'tool',
  'data',
  'capability',
  'environment',
  'reasoning',
  'unknown',
]);
export type FailureClass = z.infer<typeof FailureClassSchema>;

/** Why a role was served by other than its primary (rule 10). */
export const FallbackReasonSchema = z.enum(['call_failed', 'model_mismatch', 'capability_unsupported']);
export type FallbackReason = z.infer<typeof FallbackReasonSchema>;

/**
 * One model call as the harness records it for usage and cost: tokens as the provider reported them
 * (`usage_reported=false` when it reported none: counted, never guessed), who asked (role, phase, run, project).
 * `cost_usd` is filled by the usage ledger from the price table; null when the model has no price.
 */
export const LlmCallRecordSchema = z.object({
  id: z.string().min(1),
  at: z.string(),
  provider: ProviderIdSchema,
  model: z.string(),
  role: HarnessRoleSchema,
  phase: z.string().nullable(),
  run_id: z.string().nullable(),
  project_id: z.string().nullable(),
  credential_id: z.string().nullable(),
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  cached_input_tokens: z.number().int().min(0),
  usage_reported: z.boolean(),
  outcome: z.enum(['ok', 'failed']),
  failure_class: FailureClassSchema.nullable(),
  latency_ms: z.number().min(0),
  cost_usd: z.number().min(0).nullable(),
  /** Who the call was made for (decision 0113): the run's starter or the chat request's principal; null for none. */
  principal_subject: z.string().nullable().optional(),
  principal_client_id: z.string().nullable().optional(),
});
export type LlmCallRecord = z.infer<typeof LlmCallRecordSchema>;
