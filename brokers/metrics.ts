import client from 'prom-client';
import type { Middleware } from 'moleculer';

/**
 * One prom-client registry per process, for our metrics and the action timings (Moleculer's own metrics stay off,
 * notes/runtime.md "Metrics and logging"). The gateway serves it on `/metrics`.
 */
export interface Metrics {
  registry: client.Registry;
  actionDuration: client.Histogram<'action' | 'status'>;
  /** Moleculer middleware timing every local action. */
  middleware: Middleware;
}

export function createMetrics(opts: { collectDefaults?: boolean } = {}): Metrics {
  const registry = new client.Registry();
  if (opts.collectDefaults !== false) client.collectDefaultMetrics({ register: registry });
  const actionDuration = new client.Histogram({
    name: 'service_action_duration_seconds',
    help: 'Duration of actor actions handled by this process',
    labelNames: ['action', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [registry],
  });
  const middleware: Middleware = {
    name: 'ActionTiming',
    localAction(next: (ctx: unknown) => Promise<unknown>, action: { name: string }) {
      return function timed(ctx: unknown) {
        const end = actionDuration.startTimer({ action: action.name });
        return next(ctx).then(
          (res) => {
            end({ status: 'ok' });
            return res;
          },
          (err: unknown) => {
            end({ status: 'error' });
            throw err;
          },
        );
      };
    },
  } as unknown as Middleware;
  return { registry, actionDuration, middleware };
}

/** Returns the metric of `name` from `registry`, creating it with `make` the first time (safe across hot paths). */
export function getOrCreate<T extends client.Metric>(registry: client.Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}
