import client from 'prom-client';
import { getOrCreate, type Metrics } from '../../../brokers/metrics.ts';
import type { LlmCallInput } from '../../../contracts/harness-usage.ts';
import { boundedLabel } from '../metric-labels.ts';

function counter<L extends string>(m: Metrics, name: string, help: string, labelNames: readonly L[]) {
  return getOrCreate(
    m.registry,
    name,
    () => new client.Counter<L>({ name, help, labelNames, registers: [m.registry] }),
  ) as client.Counter<L>;
}

/**
 * The usage metrics (SPEC "Observability signals"): tokens by kind, cost, calls (with usage_reported) and the run
 * spend alert, their provider and model label values bounded (metric-labels.ts). Bumped only when a call is newly recorded, so a retried record is never counted twice.
 */
export function createUsageMetrics(m: Metrics, maxLabelValues: number) {
  // Model names and provider ids come from callers: at most maxLabelValues of each, the rest `other`.
  const provider = boundedLabel(maxLabelValues);
  const model = boundedLabel(maxLabelValues);
  const tokens = counter(
    m,
    'service_llm_tokens_total',
    'Tokens of recorded model calls by kind (prompt, completion, cached_input)',
    ['role', 'provider', 'model', 'kind'] as const,
  );
  const cost = counter(m, 'service_llm_cost_usd_total', 'USD cost of recorded model calls (priced calls only)', [
    'role',
    'provider',
    'model',
  ] as const);
  const calls = counter(
    m,
    'service_llm_calls_total',
    'Recorded model calls; usage_reported=false when the provider reported no usage',
    ['role', 'provider', 'model', 'usage_reported'] as const,
  );
  const spendExceeded = counter(
    m,
    'service_llm_run_spend_exceeded_total',
    'Runs whose model spend reached SERVICE_RUN_SPEND_ALERT_USD (once per run)',
    ['role'] as const,
  );
  return {
    /** Counts one newly recorded call. */
    call(c: LlmCallInput, costUsd: number | null): void {
      const base = { role: c.role, provider: provider(c.provider), model: model(c.model) };
      calls.inc({ ...base, usage_reported: String(c.usage_reported) });
      tokens.inc({ ...base, kind: 'prompt' }, c.prompt_tokens);
      tokens.inc({ ...base, kind: 'completion' }, c.completion_tokens);
      tokens.inc({ ...base, kind: 'cached_input' }, c.cached_input_tokens);
      if (costUsd !== null) cost.inc(base, costUsd);
    },
    /** Counts a run whose spend crossed the alert threshold (the database decided it is the first time). */
    spendExceeded(role: string): void {
      spendExceeded.inc({ role });
    },
  };
}
export type UsageMetrics = ReturnType<typeof createUsageMetrics>;
