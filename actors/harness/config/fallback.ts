import client from 'prom-client';
import type { Logger } from '../../../brokers/logger.ts';
import { getOrCreate, type Metrics } from '../../../brokers/metrics.ts';
import type { FallbackReason } from '../../../contracts/harness.ts';
import type { FallbackEvent } from '../../../contracts/harness-config.ts';
import { boundedLabel } from '../metric-labels.ts';

/**
 * Provider fallback (SPEC rule 10): whenever a role is served by other than its primary, `harness_provider_fallback`
 * is logged (warn; info for capability_unsupported) and service_harness_provider_fallback_total{primary, fallback,
 * role, reason} counts it. `primary` and `fallback` are `provider:model`. The primary provider's last fallback and
 * count are kept for GET /v1/harness/providers (since this process started).
 */

export interface FallbackInput {
  role: string;
  primary: { provider: string; model: string };
  fallback: { provider: string; model: string };
  reason: FallbackReason;
  /** Why the primary was not used, in words (a failure class, a mismatch). */
  detail?: string;
}

export function createFallbackRecorder(opts: {
  log: Logger;
  metrics: Metrics;
  now: () => Date;
  maxLabelValues: number;
}) {
  // `provider:model` values come from callers' routes: bounded, the rest `other` (metric-labels.ts).
  const routeLabel = boundedLabel(opts.maxLabelValues);
  const registry = opts.metrics.registry;
  const counter = getOrCreate(
    registry,
    'service_harness_provider_fallback_total',
    () =>
      new client.Counter({
        name: 'service_harness_provider_fallback_total',
        help: 'model calls of a role served by other than its primary provider/model',
        labelNames: ['primary', 'fallback', 'role', 'reason'] as const,
        registers: [registry],
      }),
  );
  const byProvider = new Map<string, { last: FallbackEvent; count: number }>();

  return {
    record(f: FallbackInput): FallbackEvent {
      const event: FallbackEvent = {
        at: opts.now().toISOString(),
        role: f.role,
        primary: `${f.primary.provider}:${f.primary.model}`,
        fallback: `${f.fallback.provider}:${f.fallback.model}`,
        reason: f.reason,
      };
      counter.inc({
        primary: routeLabel(event.primary),
        fallback: routeLabel(event.fallback),
        role: f.role,
        reason: f.reason,
      });
      const seen = byProvider.get(f.primary.provider);
      byProvider.set(f.primary.provider, { last: event, count: (seen?.count ?? 0) + 1 });
      const fields = { event: 'harness_provider_fallback', ...event, detail: f.detail };
      const msg = `role ${f.role} served by ${event.fallback} instead of ${event.primary} (${f.reason})`;
      if (f.reason === 'capability_unsupported') opts.log.info(fields, msg);
      else opts.log.warn(fields, msg);
      return event;
    },

    /** The provider's last fallback (as the primary) and how many since the start. */
    of(provider: string): { last_fallback: FallbackEvent | null; fallback_count: number } {
      const seen = byProvider.get(provider);
      return { last_fallback: seen?.last ?? null, fallback_count: seen?.count ?? 0 };
    },
  };
}
export type FallbackRecorder = ReturnType<typeof createFallbackRecorder>;
