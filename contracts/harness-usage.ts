import { z } from 'zod';
import { UsageTotalsSchema } from './flows.ts';
import { LlmCallRecordSchema } from './harness.ts';

/**
 * Wire shapes of the harness's usage part (SPEC "Usage totals", "Observability signals", "Limits"): the call ledger's
 * input, its answer, the price table kept as data and the trailing-window summary.
 */

/** USD per million tokens; a price of 0 is a real price (a local model), an absent model is unpriced. */
const UsdPerMillion = z.number().finite().min(0);

/**
 * The price of one model. Metered: input, output and cached_input (tokens read from the provider's prompt cache,
 * priced on their own). Subscription: calls covered by a flat plan, counted in calls_subscription at no per-call cost.
 */
export const ModelPriceSchema = z.union([
  z.strictObject({ input: UsdPerMillion, output: UsdPerMillion, cached_input: UsdPerMillion }),
  z.strictObject({ subscription: z.literal(true) }),
]);
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/**
 * The price table file (`SERVICE_MODEL_PRICES_PATH`, else the shipped default): prices per provider id, then per model
 * name exactly as the provider reports it (no prefix matching: an unlisted snapshot is unpriced, never guessed).
 */
export const PriceTableSchema = z.strictObject({
  currency: z.literal('USD'),
  unit: z.literal('per_million_tokens'),
  /** When the prices were read from their sources (YYYY-MM-DD). */
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'as_of is a date YYYY-MM-DD' }),
  sources: z.array(z.string().min(1)).default([]),
  notes: z.string().optional(),
  prices: z.record(z.string().min(1), z.record(z.string().min(1), ModelPriceSchema)),
});
export type PriceTable = z.infer<typeof PriceTableSchema>;

/**
 * One model call to record: the call record without its cost (the ledger prices it). `prompt_tokens` counts every
 * input token of the call, cached ones included; `cached_input_tokens` is the part read from the provider's cache
 * (OpenAI `prompt_tokens_details.cached_tokens`; Anthropic `cache_read_input_tokens`, whose `input_tokens` excludes
 * it, so the calls part adds the two).
 */
export const LlmCallInputSchema = LlmCallRecordSchema.omit({ cost_usd: true }).extend({
  at: z.iso.datetime({ offset: true }),
});
export type LlmCallInput = z.infer<typeof LlmCallInputSchema>;

/** What recording a call did: `recorded` false when a call with this id was already in the ledger (nothing changed). */
export const RecordCallResultSchema = z.object({
  id: z.string(),
  recorded: z.boolean(),
  cost_usd: z.number().min(0).nullable(),
});
export type RecordCallResult = z.infer<typeof RecordCallResultSchema>;

/** A trailing window of the ledger, in whole hours (the `/v1/runs/usage/summary` range). */
export const UsageWindowSchema = z.object({
  window_hours: z.number().int().min(1).max(8760).default(24),
  /** Only the calls made for this principal's subject (decision 0113). */
  subject: z.string().min(1).max(500).optional(),
});

/** The ledger over a trailing window: calls, tokens, cost and their breakdowns by phase, role and model. */
export const HarnessUsageSummarySchema = z.object({
  window_hours: z.number().int(),
  since: z.string(),
  until: z.string(),
  /** The principal filter, when one was asked for. */
  subject: z.string().optional(),
  usage: UsageTotalsSchema,
});
export type HarnessUsageSummary = z.infer<typeof HarnessUsageSummarySchema>;
