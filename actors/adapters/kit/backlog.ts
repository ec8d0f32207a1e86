import client from 'prom-client';
import moleculer from 'moleculer';
import type { AdapterLoad } from '../../../contracts/actions/adapter-load.ts';
import { getOrCreate } from '../../../brokers/metrics.ts';

/**
 * The calls one adapter node runs at once, capped at `limit` (null: no cap). A call past the cap is refused at once
 * with Moleculer's retryable `QueueIsFullError` (type QUEUE_FULL, data: this node's AdapterLoad) before its tool
 * starts, so the caller can send it to another replica and it still runs exactly once. Every change of the count is
 * published (`onChange`, the `adapters.load` hint) and kept in `service_tool_calls_in_flight{adapter,node}`; refusals
 * in `service_tool_calls_refused_total{adapter,node}`, each call's time in `service_tool_call_duration_seconds{tool,status}`.
 */
export interface Backlog {
  readonly limit: number | null;
  /** A slot's release, or a QueueIsFullError to throw when the node is full. */
  acquire(): (() => void) | moleculer.Errors.QueueIsFullError;
  load(): AdapterLoad;
  /** Records one finished call of `tool` (status: the ToolResult's status). */
  observe(tool: string, status: string, seconds: number): void;
}

export function createBacklog(opts: {
  adapterId: string;
  nodeId: string;
  limit: number | null;
  registry: client.Registry;
  onChange(load: AdapterLoad): void;
}): Backlog {
  const { adapterId, nodeId, limit } = opts;
  const inFlightGauge = getOrCreate(
    opts.registry,
    'service_tool_calls_in_flight',
    () =>
      new client.Gauge({
        name: 'service_tool_calls_in_flight',
        help: 'Tool calls an adapter node is running now',
        labelNames: ['adapter', 'node'] as const,
        registers: [opts.registry],
      }),
  );
  const duration = getOrCreate(
    opts.registry,
    'service_tool_call_duration_seconds',
    () =>
      new client.Histogram({
        name: 'service_tool_call_duration_seconds',
        help: 'Time an adapter node spent running one tool call (from its start, waiting excluded)',
        labelNames: ['tool', 'status'] as const,
        buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
        registers: [opts.registry],
      }),
  );
  const refused = getOrCreate(
    opts.registry,
    'service_tool_calls_refused_total',
    () =>
      new client.Counter({
        name: 'service_tool_calls_refused_total',
        help: 'Tool calls an adapter node refused before starting them because it ran its limit of calls',
        labelNames: ['adapter', 'node'] as const,
        registers: [opts.registry],
      }),
  );
  let inFlight = 0;
  const epoch = Date.now();
  let seq = 0;
  const load = (): AdapterLoad => ({ adapter_id: adapterId, node_id: nodeId, in_flight: inFlight, limit, epoch, seq });
  const changed = () => {
    seq++;
    inFlightGauge.set({ adapter: adapterId, node: nodeId }, inFlight);
    opts.onChange(load());
  };
  inFlightGauge.set({ adapter: adapterId, node: nodeId }, 0);
  return {
    limit,
    load,
    acquire() {
      if (limit !== null && inFlight >= limit) {
        refused.inc({ adapter: adapterId, node: nodeId });
        return new moleculer.Errors.QueueIsFullError({
          action: `adapters.${adapterId}.invoke`,
          nodeID: nodeId,
          ...load(),
        });
      }
      inFlight++;
      changed();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight--;
        changed();
      };
    },
    observe(tool, status, seconds) {
      duration.observe({ tool, status }, seconds);
    },
  };
}
