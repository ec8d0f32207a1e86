import type { ServiceBroker } from 'moleculer';
import type { Infra } from '../brokers/infra.ts';
import type { ComponentHealth } from '../contracts/health.ts';

/** A probe of one of this node's own links; it never throws (a failure is an `unhealthy` component). */
export type LinkProbe = () => Promise<ComponentHealth>;

/** The moleculer internals the bus probe reads: the transit's connected flag and the NATS connection's PING/PONG. */
interface TransitView {
  connected?: boolean;
  tx?: { client?: { flush?: () => Promise<void> } | null };
}

/**
 * Runs `fn` against `limitMs`: resolves with a healthy component, or an unhealthy one naming the error or the silence.
 * A partition is silent (no reset, no answer), so the limit is what turns it into an answer.
 */
async function timed(
  name: string,
  limitMs: number,
  silence: string,
  fn: () => Promise<void>,
): Promise<ComponentHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(silence)), limitMs);
  });
  try {
    await Promise.race([fn(), limit]);
    return { name, status: 'healthy', latency_ms: performance.now() - started, message: null };
  } catch (err) {
    return { name, status: 'unhealthy', latency_ms: performance.now() - started, message: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * This node's own links, probed by `/health` besides the actors (decision 0175): `bus`, a PING/PONG round trip to the
 * NATS server when the node runs on a transporter (a node cut off from NATS still answers its local actors, so only
 * this shows the cut), and `database`, a `SELECT 1` on this node's own pool when it has one (a cluster node with
 * `SERVICE_DATABASE_URL`, or one hosting actors that own tables). Each is bounded by `limitMs`.
 */
export function linkProbes(broker: ServiceBroker, infra: Pick<Infra, 'config' | 'roles' | 'db'>, limitMs: number) {
  const probes: LinkProbe[] = [];
  const transit = broker.transit as unknown as TransitView | undefined;
  if (transit)
    probes.push(() =>
      timed('bus', limitMs, `no answer from the NATS server within ${limitMs} ms`, async () => {
        const flush = transit.tx?.client?.flush;
        if (!transit.connected || !flush) throw new Error('not connected to the NATS server');
        await flush.call(transit.tx!.client);
      }),
    );
  if (infra.config.SERVICE_DATABASE_URL || infra.roles.some((r) => r !== 'gateway'))
    probes.push(() =>
      timed('database', limitMs, `no answer from the database within ${limitMs} ms`, async () => {
        await (await infra.db()).query('SELECT 1');
      }),
    );
  return probes;
}
