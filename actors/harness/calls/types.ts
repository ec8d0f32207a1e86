import type { ProviderFamily } from '../../../contracts/harness.ts';
import type { CallUsage, ChatMessage, ToolOffer } from '../../../contracts/harness-calls.ts';

/**
 * One provider as a call reaches it: the family decides the wire format, `baseURL` the endpoint (absent: the
 * family's first-party endpoint). `apiKey` is the resolved secret; it stays in process memory and is never logged.
 */
export interface ProviderConfig {
  family: ProviderFamily;
  baseURL?: string;
  apiKey?: string;
  /** Until the response headers arrive (the SDK's own timeout; its retries are off). */
  timeoutMs?: number;
  /** Longest silence between two streamed chunks once the stream has begun. */
  idleTimeoutMs?: number;
  /** The fetch the SDK uses (the harness's egress policy, egress.ts); absent: the SDK's own. */
  fetch?: typeof globalThis.fetch;
}

/** A family-neutral model call. `onText` receives streamed text deltas in order, as they arrive. */
export interface CompleteRequest {
  provider: ProviderConfig;
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolOffer[];
  maxTokens?: number;
  temperature?: number;
  /** false: one non-streamed response (no deltas); default true. */
  stream?: boolean;
  signal?: AbortSignal;
  onText?(delta: string): void;
}

/** What a family learned while the call ran, kept even when it failed (usage a provider reported before a fault). */
export interface CallProgress {
  usage?: CallUsage;
  model?: string;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const NO_USAGE: CallUsage = {
  prompt_tokens: 0,
  completion_tokens: 0,
  cached_input_tokens: 0,
  usage_reported: false,
};
