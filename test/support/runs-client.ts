import type { ServiceBroker } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import { createBroker, type BrokerHandle } from '../../brokers/broker.ts';
import { loadConfig } from '../../brokers/config.ts';
import { toActorErrorShape } from '../../brokers/errors.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { RunsActions as R, type RunView } from '../../contracts/actions/runs.actions.ts';
import type { ActionInput } from '../../contracts/define.ts';

/** A gate as the `runs.gateOpened` broadcast and the run view name it. */
export interface SeenGate {
  phase: string;
  gate_id: string;
  ready: boolean;
}

/**
 * Where each run's gates stand, from `runs.gateOpened` broadcasts, with a `runs.get` poll as the fallback (a broadcast
 * is a notification safe to lose, e.g. when its node dies right after the append).
 */
export class GateWatch {
  private readonly latest = new Map<string, SeenGate>();
  private readonly wake = new Map<string, () => void>();
  private bus?: ServiceBroker;

  /** The listener service to host on the client broker. */
  service() {
    const self = this;
    return () => ({
      name: 'gate-watch',
      events: {
        'runs.gateOpened'(ctx: { params: SeenGate & { run_id: string } }) {
          self.latest.set(ctx.params.run_id, {
            phase: ctx.params.phase,
            gate_id: ctx.params.gate_id,
            ready: ctx.params.ready,
          });
          self.wake.get(ctx.params.run_id)?.();
        },
      },
      started(this: { broker: ServiceBroker }) {
        self.bus = this.broker;
      },
    });
  }

  /** The run's open gate that is not in `decided`, or null once the run ended; asks `runs.get` only after `pollMs` without news. */
  async next(runId: string, decided: Set<string>, timeoutMs = 60_000, pollMs = 400): Promise<SeenGate | null> {
    const until = Date.now() + timeoutMs;
    for (let poll = false; ;) {
      const seen = this.latest.get(runId);
      if (seen && !decided.has(seen.gate_id)) return seen;
      if (poll) {
        const view = await call(this.bus!, R.get, { run_id: runId }).catch(() => undefined);
        if (view?.gate && !decided.has(view.gate.gate_id))
          return { phase: view.gate.phase, gate_id: view.gate.gate_id, ready: view.gate.ready };
        if (view && !view.gate && ['completed', 'failed', 'rejected', 'cancelled'].includes(view.status)) return null;
        if (Date.now() > until)
          throw new Error(
            `no new gate on ${runId} within ${timeoutMs} ms (last view: ${view?.status}, gate ${view?.gate?.gate_id})`,
          );
      }
      poll = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(true), pollMs);
        this.wake.set(runId, () => {
          clearTimeout(t);
          resolve(false);
        });
      });
      this.wake.delete(runId);
    }
  }
}

/** Starts this process as a bus client: no actors, only the gate watch, on the nodes' NATS namespace. */
export async function startBusClient(env: Record<string, string>, watch: GateWatch): Promise<BrokerHandle> {
  const config = loadConfig({ SERVICE_LOG_LEVEL: 'warn', ...env, SERVICE_DATA_DIR: 'memory://' });
  const log = createRootLogger({ level: 'error', toStderr: true });
  const handle = createBroker({
    roles: [{ name: 'client', doc: 'bus client of the test', services: [watch.service()] }],
    transporter: config.SERVICE_TRANSPORTER,
    config,
    log,
  });
  await handle.broker.start();
  return handle;
}

/** Codes a caller retries with the same idempotency key (notes/runtime.md crash test). */
export const RETRYABLE = new Set(['SERVICE_UNAVAILABLE', 'TIMEOUT']);

/** Retries a driver made, by error code. */
export interface DecideStats {
  retries: number;
  byCode: Record<string, number>;
}

/**
 * `runs.decide` through the node `nodes[first]` (any node when `nodes` is empty), retried on a retryable error with
 * exponential backoff and the same idempotency key, each retry through the next node (the first one may be down).
 */
export async function decideWithRetry(
  bus: ServiceBroker,
  nodes: string[],
  first: number,
  params: ActionInput<typeof R.decide>,
  stats: DecideStats,
  opts: { timeoutMs?: number; maxAttempts?: number } = {},
): Promise<RunView> {
  const { maxAttempts = 15 } = opts;
  for (let attempt = 0; ; attempt++) {
    try {
      const nodeID = nodes.length ? nodes[(first + attempt) % nodes.length] : undefined;
      return await call(bus, R.decide, params, { nodeID, timeout: opts.timeoutMs });
    } catch (err) {
      const code = toActorErrorShape(err).code;
      if (!RETRYABLE.has(code) || attempt + 1 >= maxAttempts) throw err;
      stats.retries++;
      stats.byCode[code] = (stats.byCode[code] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2)));
    }
  }
}

/** Waits until every node in `nodeIDs` is visible on the bus with the `runs` service. */
export async function waitForRunsNodes(bus: ServiceBroker, nodeIDs: string[], timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const up = nodeIDs.filter(
      (id) =>
        bus.registry.nodes.get(id)?.available && bus.registry.nodes.get(id)?.services?.some((s) => s.name === 'runs'),
    );
    if (up.length === nodeIDs.length) return;
    if (Date.now() > until)
      throw new Error(`runs nodes not on the bus: ${nodeIDs.filter((id) => !up.includes(id)).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
