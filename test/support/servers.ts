import crypto from 'node:crypto';
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

/**
 * Environment for nodes that form one cluster on the real NATS server: a namespace of their own, and heartbeats short
 * enough for a test to see a node go away within seconds.
 */
export function natsClusterEnv(): Record<string, string> {
  return {
    SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
    SERVICE_NAMESPACE: `t-${crypto.randomBytes(4).toString('hex')}`,
    SERVICE_NATS_HEARTBEAT_S: '1',
    SERVICE_NATS_HEARTBEAT_TIMEOUT_S: '3',
  };
}

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
