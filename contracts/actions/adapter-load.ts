import { z } from 'zod';

/**
 * Broadcast event: an adapter node's calls in flight changed (a call started or ended) or the node started. A hint for
 * the callers' balancer (brokers/load-board.ts), safe to lose: callers also count their own calls per node, and a
 * refusal carries the same figures.
 */
export const ADAPTER_LOAD_EVENT = 'adapters.load';
export const AdapterLoadSchema = z.object({
  adapter_id: z.string(),
  node_id: z.string(),
  in_flight: z.number().int().min(0),
  /** Calls the node runs at once; null = no limit. */
  limit: z.number().int().min(1).nullable(),
  /**
   * Orders one node's reports, which may arrive out of order (an event and a refusal travel apart): the adapter
   * actor's start time (ms) and a count of its changes. A report older than the one a caller holds is ignored.
   */
  epoch: z.number().optional(),
  seq: z.number().int().min(0).optional(),
});
export type AdapterLoad = z.infer<typeof AdapterLoadSchema>;

/**
 * The Moleculer error type of a refused call: the node already runs its limit of calls (Moleculer's `QueueIsFullError`,
 * retryable, its `data` an AdapterLoad). Sent before the tool starts, so the caller may send it to another node.
 */
export const ADAPTER_BUSY_TYPE = 'QUEUE_FULL';

/** The balancing strategy of every adapter's `invoke` (registered by brokers/least-in-flight.strategy.ts). */
export const LEAST_IN_FLIGHT_STRATEGY = 'LeastInFlight';

/** `adapters.<id>.invoke` -> `<id>`; undefined for any other action. */
export function adapterOfInvoke(action: string): string | undefined {
  const m = /^adapters\.([^.]+)\.invoke$/.exec(action);
  return m?.[1];
}
