import { z } from 'zod';
import { UsageTotalsSchema } from './flows.ts';
import { AdapterHealthStatusSchema } from './tools.ts';

/**
 * Health of one downstream dependency `{name, status, latency_ms, message}` (SPEC "Component health"). The spec
 * gives no status values, so the adapter vocabulary is reused; latency and message are null when there is nothing
 * to report.
 */
export const ComponentHealthSchema = z.object({
  name: z.string().min(1),
  status: AdapterHealthStatusSchema,
  latency_ms: z.number().min(0).nullable(),
  message: z.string().nullable(),
});
export type ComponentHealth = z.infer<typeof ComponentHealthSchema>;

/** One adapter in the roll-up (SPEC "Unified-server health roll-up"); tools_registered does not shrink when down. */
export const RollupAdapterSchema = z.object({
  adapter_id: z.string(),
  version: z.string(),
  tools_registered: z.number().int().min(0),
  reachable: z.boolean(),
  error: z.string().optional(),
});
export type RollupAdapter = z.infer<typeof RollupAdapterSchema>;

/** What the tool-server transport enforces (SPEC "Authentication / Tool server transports" rule 6). */
export const TransportAuthSchema = z.enum(['open', 'api_key', 'oauth', 'api_key+oauth', 'unknown']);
export type TransportAuth = z.infer<typeof TransportAuthSchema>;

/** Protocol revision mismatch: the client asked for `requested`, the server pins `pinned` (SPEC "Versioning" 3). */
export const ProtocolSkewSchema = z.object({ requested: z.string(), pinned: z.string() });
export type ProtocolSkew = z.infer<typeof ProtocolSkewSchema>;

/**
 * The calling client in the roll-up (SPEC "Unified-server health roll-up"): can_elicit plus the clientInfo from
 * initialize (kept as sent, so loose) and protocol_skew when the requested revision differs from the pinned one.
 */
export const HealthClientSchema = z.looseObject({
  can_elicit: z.boolean(),
  name: z.string().optional(),
  version: z.string().optional(),
  protocol_skew: ProtocolSkewSchema.optional(),
});
export type HealthClient = z.infer<typeof HealthClientSchema>;

/** Trailing-24-hour LLM usage when the store could be read (SPEC roll-up, llm_usage_24h). */
export const LlmUsageAvailableSchema = UsageTotalsSchema.extend({ available: z.literal(true) });
export type LlmUsageAvailable = z.infer<typeof LlmUsageAvailableSchema>;

/** llm_usage_24h when the usage store cannot be read: `available: false` plus a reason (SPEC roll-up). */
export const LlmUsageUnavailableSchema = z.object({ available: z.literal(false), reason: z.string() });
export type LlmUsageUnavailable = z.infer<typeof LlmUsageUnavailableSchema>;

/** llm_usage_24h of the roll-up, discriminated on `available` (SPEC "Unified-server health roll-up"). */
export const LlmUsage24hSchema = z.discriminatedUnion('available', [
  LlmUsageAvailableSchema,
  LlmUsageUnavailableSchema,
]);
export type LlmUsage24h = z.infer<typeof LlmUsage24hSchema>;

/** Model routing state in the roll-up `{status, problems}` (SPEC roll-up); the spec names no status values. */
export const ModelRoutingHealthSchema = z.object({ status: z.string(), problems: z.array(z.string()) });
export type ModelRoutingHealth = z.infer<typeof ModelRoutingHealthSchema>;

/**
 * Whether the harness write routes (credentials, selection, project routes) are open (loopback, no admin token),
 * behind the admin token, or closed (beyond loopback with no admin token: issue 27); this service's addition.
 */
export const HarnessWritesHealthSchema = z.object({
  status: z.enum(['open', 'admin_token', 'closed']),
  detail: z.string(),
});
export type HarnessWritesHealth = z.infer<typeof HarnessWritesHealthSchema>;

/**
 * Unified-server health roll-up: `health/check` answer and `GET /health` body (SPEC "Unified-server health roll-up").
 * status is healthy only if every adapter answered; unreachable_adapters and detail appear only when something is
 * wrong. `components` is this service's addition: the gateway reports its actors and the database there.
 */
export const HealthRollupSchema = z.object({
  service: z.string(),
  status: z.enum(['healthy', 'degraded']),
  version: z.string(),
  uptime_seconds: z.number().min(0),
  adapter_count: z.number().int().min(0),
  tool_count: z.number().int().min(0),
  adapters: z.array(RollupAdapterSchema),
  unreachable_adapters: z.array(z.string()).optional(),
  detail: z.string().optional(),
  auth: TransportAuthSchema,
  client: HealthClientSchema,
  llm_usage_24h: LlmUsage24hSchema,
  model_routing: ModelRoutingHealthSchema,
  harness_writes: HarnessWritesHealthSchema.optional(),
  components: z.array(ComponentHealthSchema).optional(),
});
export type HealthRollup = z.infer<typeof HealthRollupSchema>;
