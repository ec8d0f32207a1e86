import client from 'prom-client';
import type { Context, Middleware, ServiceBroker, ServiceSchema } from 'moleculer';
import {
  ADAPTER_LOAD_EVENT,
  adapterOfInvoke,
  AdapterLoadSchema,
  type AdapterLoad,
} from '../contracts/actions/adapter-load.ts';
import { getOrCreate } from './metrics.ts';

interface Waiter {
  resolve(nodeId: string | undefined): void;
}

/**
 * What one process knows of the adapter nodes' calls in flight, for the LeastInFlight strategy and for calls waiting
 * for a free slot. Two sources: what each adapter node publishes (`adapters.load`, a refusal's data), and the calls this
 * process has sent to each node and not had answered. A node's count is the larger of the two (the published one
 * includes other callers' calls; the own one is never late).
 */
export class LoadBoard {
  private readonly published = new Map<string, AdapterLoad>();
  private readonly sentTo = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();

  private readonly random: () => number;

  /** `random` breaks ties between nodes equally loaded (injected so tests can fix it). */
  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  /** Records a node's published load and hands its free slots to waiting calls. */
  report(load: AdapterLoad): void {
    const k = key(load.adapter_id, load.node_id);
    const held = this.published.get(k);
    if (!held || !olderThan(load, held)) this.published.set(k, load);
    this.wake(load.adapter_id);
  }

  /** Counts a call this process sent to `nodeId` (+1) or got answered (-1); an answer frees a slot for a waiter. */
  sent(adapterId: string, nodeId: string, delta: 1 | -1): void {
    const k = key(adapterId, nodeId);
    const n = Math.max(0, (this.sentTo.get(k) ?? 0) + delta);
    if (n) this.sentTo.set(k, n);
    else this.sentTo.delete(k);
    if (delta < 0) this.wake(adapterId);
  }

  inFlight(adapterId: string, nodeId: string): number {
    const k = key(adapterId, nodeId);
    return Math.max(this.published.get(k)?.in_flight ?? 0, this.sentTo.get(k) ?? 0);
  }

  /** Free slots of a node: Infinity when it published no limit (or nothing yet). */
  free(adapterId: string, nodeId: string): number {
    const limit = this.published.get(key(adapterId, nodeId))?.limit;
    return limit == null ? Infinity : limit - this.inFlight(adapterId, nodeId);
  }

  /** The node of `nodeIds` with the fewest calls in flight; a tie is broken at random (callers spread, never herd). */
  pick(adapterId: string, nodeIds: readonly string[], extra?: ReadonlyMap<string, number>): string | undefined {
    let best: string[] = [];
    let least = Infinity;
    for (const id of nodeIds) {
      const n = this.inFlight(adapterId, id) + (extra?.get(id) ?? 0);
      if (n < least) [least, best] = [n, [id]];
      else if (n === least) best.push(id);
    }
    return best.length <= 1 ? best[0] : best[Math.min(best.length - 1, Math.floor(this.random() * best.length))];
  }

  /**
   * Resolves with a node of `adapterId` that has a free slot, first come first served. With no free node known, waits
   * for one (a published load, an answer to one of this process's calls); after `pollMs` resolves undefined (the caller
   * lets the strategy choose: an `adapters.load` event may have been lost). An aborted wait resolves undefined.
   */
  waitForSlot(adapterId: string, opts: { pollMs: number; signal?: AbortSignal }): Promise<string | undefined> {
    const queue = this.waiters.get(adapterId) ?? [];
    if (!queue.length) {
      const now = this.freeNode(adapterId, new Map());
      if (now) return Promise.resolve(now);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve: (nodeId) => {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', leave);
          resolve(nodeId);
        },
      };
      const leave = () => {
        const q = this.waiters.get(adapterId);
        if (q?.includes(waiter)) q.splice(q.indexOf(waiter), 1);
        waiter.resolve(undefined);
      };
      const timer = setTimeout(leave, opts.pollMs);
      opts.signal?.addEventListener('abort', leave, { once: true });
      queue.push(waiter);
      this.waiters.set(adapterId, queue);
    });
  }

  /** Calls of `adapterId` waiting for a free slot in this process. */
  waiting(adapterId: string): number {
    return this.waiters.get(adapterId)?.length ?? 0;
  }

  /** Adapters with calls waiting now or before (the gauge's label values). */
  adapters(): string[] {
    return [...this.waiters.keys()];
  }

  /** Drops what a node published (it left the bus). */
  forget(nodeId: string): void {
    for (const [k, load] of this.published) if (load.node_id === nodeId) this.published.delete(k);
  }

  /** Hands each free slot to the oldest waiting call; the slots handed out count until those calls are sent. */
  private wake(adapterId: string): void {
    const queue = this.waiters.get(adapterId);
    const handed = new Map<string, number>();
    while (queue?.length) {
      const nodeId = this.freeNode(adapterId, handed);
      if (!nodeId) return;
      handed.set(nodeId, (handed.get(nodeId) ?? 0) + 1);
      queue.shift()!.resolve(nodeId);
    }
  }

  private freeNode(adapterId: string, handed: ReadonlyMap<string, number>): string | undefined {
    const free: string[] = [];
    for (const load of this.published.values())
      if (load.adapter_id === adapterId && this.free(adapterId, load.node_id) - (handed.get(load.node_id) ?? 0) > 0)
        free.push(load.node_id);
    return this.pick(adapterId, free, handed);
  }
}

/** Whether report `a` was made before `b` by the same node (reports without an order are never older). */
function olderThan(a: AdapterLoad, b: AdapterLoad): boolean {
  if (a.epoch === undefined || b.epoch === undefined || a.seq === undefined || b.seq === undefined) return false;
  return a.epoch < b.epoch || (a.epoch === b.epoch && a.seq < b.seq);
}

function key(adapterId: string, nodeId: string): string {
  return `${adapterId}\u0000${nodeId}`;
}

const boards = new WeakMap<ServiceBroker, LoadBoard>();

/** The load board of `broker` (one per broker; undefined for a broker not built by createBroker). */
export function boardOf(broker: ServiceBroker): LoadBoard | undefined {
  return boards.get(broker);
}

/**
 * The balancing kit of one broker: the board, a middleware counting the calls this process sends to each adapter
 * node, the `service_tool_calls_waiting{adapter}` gauge, and (`attach`) the service that takes `adapters.load` events.
 */
export function createLoadBalancing(registry: client.Registry, random?: () => number) {
  const board = new LoadBoard(random);
  getOrCreate(
    registry,
    'service_tool_calls_waiting',
    () =>
      new client.Gauge({
        name: 'service_tool_calls_waiting',
        help: 'Tool calls accepted by this process and not started: every replica of their adapter was full',
        labelNames: ['adapter'] as const,
        registers: [registry],
        collect() {
          for (const a of board.adapters()) this.set({ adapter: a }, board.waiting(a));
        },
      }),
  );
  const middleware = {
    name: 'AdapterLoad',
    remoteAction(next: (ctx: Context) => Promise<unknown>, action: { name: string }) {
      const adapterId = adapterOfInvoke(action.name);
      if (!adapterId) return next;
      return function counted(ctx: Context) {
        const nodeId = ctx.nodeID!;
        board.sent(adapterId, nodeId, 1);
        return next(ctx).finally(() => board.sent(adapterId, nodeId, -1));
      };
    },
  } as unknown as Middleware;
  const service: ServiceSchema = {
    name: 'adapter-load',
    events: {
      [ADAPTER_LOAD_EVENT](ctx: Context) {
        const load = AdapterLoadSchema.safeParse(ctx.params);
        if (load.success) board.report(load.data);
      },
      '$node.disconnected'(ctx: Context<{ node: { id: string } }>) {
        board.forget(ctx.params.node.id);
      },
    },
  };
  return {
    board,
    middleware,
    attach(broker: ServiceBroker) {
      boards.set(broker, board);
      broker.createService(service);
    },
  };
}
