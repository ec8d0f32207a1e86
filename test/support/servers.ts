import net from 'node:net';

export interface ServerAvailability {
  pg: boolean;
  redis: boolean;
  nats: boolean;
}

/** Where the integration suites find the real servers. */
export const TEST_SERVERS = {
  pgUrl: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
};

function portOpen(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function probeServers(): Promise<ServerAvailability> {
  const [pg, redis, nats] = await Promise.all([
    portOpen(TEST_SERVERS.pgUrl, 5432),
    portOpen(TEST_SERVERS.redisUrl, 6379),
    portOpen(TEST_SERVERS.natsUrl, 4222),
  ]);
  return { pg, redis, nats };
}
