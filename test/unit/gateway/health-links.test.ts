import type { ServiceBroker } from 'moleculer';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../brokers/db/index.ts';
import type { ServiceConfig } from '../../../brokers/config.ts';
import { linkProbes } from '../../../gateway/health-links.ts';

/** A broker as the probes read it: `transit` undefined (embedded) or a connection whose PING gets `pong`. */
function busOf(transit: { connected: boolean; pong?: () => Promise<void> } | undefined): ServiceBroker {
  if (!transit) return { transit: undefined } as unknown as ServiceBroker;
  return {
    transit: { connected: transit.connected, tx: { client: transit.pong ? { flush: transit.pong } : null } },
  } as unknown as ServiceBroker;
}
const never = () => new Promise<void>(() => undefined);
const infraOf = (db: Partial<Db> | undefined, roles = ['gateway']) => ({
  config: { SERVICE_DATABASE_URL: db ? 'postgres://x' : undefined } as ServiceConfig,
  roles,
  db: () => Promise.resolve(db as Db),
});
const run = (probes: ReturnType<typeof linkProbes>) => Promise.all(probes.map((p) => p()));

describe("the health probes of a node's own links (decision 0175)", () => {
  it('a bus that never answers the PING (a silent partition) is unhealthy within the limit', async () => {
    const [bus] = await run(linkProbes(busOf({ connected: true, pong: never }), infraOf(undefined), 50));
    expect(bus).toMatchObject({
      name: 'bus',
      status: 'unhealthy',
      message: 'no answer from the NATS server within 50 ms',
    });
  });

  it('a transit that lost its connection is unhealthy without waiting', async () => {
    const [bus] = await run(linkProbes(busOf({ connected: false, pong: never }), infraOf(undefined), 60_000));
    expect(bus).toMatchObject({ name: 'bus', status: 'unhealthy', message: 'not connected to the NATS server' });
  });

  it('a database that never answers is unhealthy within the limit, one that answers is healthy', async () => {
    const silent = await run(linkProbes(busOf(undefined), infraOf({ query: never as unknown as Db['query'] }), 50));
    expect(silent).toMatchObject([{ name: 'database', status: 'unhealthy' }]);
    const ok = await run(
      linkProbes(
        busOf({ connected: true, pong: async () => undefined }),
        infraOf({ query: (async () => ({ rows: [] })) as unknown as Db['query'] }),
        1000,
      ),
    );
    expect(ok.map((c) => [c.name, c.status])).toEqual([
      ['bus', 'healthy'],
      ['database', 'healthy'],
    ]);
  });

  it('an embedded gateway-only node without a database URL probes neither link', () => {
    expect(linkProbes(busOf(undefined), infraOf(undefined), 50)).toEqual([]);
  });
});
