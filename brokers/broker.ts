import os from 'node:os';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import moleculer, { type BrokerOptions } from 'moleculer';
import type { ServiceConfig } from './config.ts';
import { openDb, type Db } from './db/index.ts';
import { drainNode } from './drain.ts';
import { ActorErrorRegenerator } from './errors.ts';
import './least-in-flight.strategy.ts';
import { createLoadBalancing } from './load-board.ts';
import type { Infra, RoleDefinition } from './infra.ts';
import { moleculerLoggerOptions, type Logger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { createContractValidation } from './validator.ts';

export interface CreateBrokerOptions {
  /** Role names to host, already expanded (see `resolveRoles`). */
  roles: RoleDefinition[];
  /** `nats://host:port`; undefined = no transporter, every actor in this process (the embedded default). */
  transporter?: string;
  config: ServiceConfig;
  log: Logger;
  now?: () => Date;
}

export interface BrokerHandle {
  broker: moleculer.ServiceBroker;
  infra: Infra;
  /** Graceful drain: stop accepting, finish in-flight calls, leave the bus, close connections. */
  stop(): Promise<void>;
}

function brokerOptions(
  opts: CreateBrokerOptions,
  metrics: ReturnType<typeof createMetrics>,
  balancing: ReturnType<typeof createLoadBalancing>,
): BrokerOptions {
  const { config } = opts;
  const nodeID = config.SERVICE_NODE_ID ?? `${os.hostname()}-${process.pid}-${crypto.randomBytes(2).toString('hex')}`;
  const cacher = config.SERVICE_REDIS_URL
    ? { type: 'Redis', options: { prefix: 'SVC', ttl: 30, redis: config.SERVICE_REDIS_URL } }
    : opts.transporter
      ? undefined // a memory cacher per node would serve stale entries across nodes
      : { type: 'Memory', options: { ttl: 30, maxParamsLength: 200 } };
  return {
    nodeID,
    namespace: config.SERVICE_NAMESPACE,
    transporter: opts.transporter ? { type: 'NATS', options: { url: opts.transporter } } : undefined,
    logger: moleculerLoggerOptions(opts.log, config.SERVICE_LOG_LEVEL) as BrokerOptions['logger'],
    requestTimeout: config.SERVICE_REQUEST_TIMEOUT_MS,
    heartbeatInterval: config.SERVICE_NATS_HEARTBEAT_S,
    heartbeatTimeout: config.SERVICE_NATS_HEARTBEAT_TIMEOUT_S,
    registry: { strategy: 'RoundRobin', preferLocal: true, stopDelay: 100 },
    cacher: cacher as BrokerOptions['cacher'],
    validator: true, // fastest-validator for plain `params` schemas; zod contracts go through ContractValidation
    errorRegenerator: new ActorErrorRegenerator() as unknown as BrokerOptions['errorRegenerator'],
    metrics: false,
    tracing: false,
    skipProcessEventRegistration: true,
    middlewares: [metrics.middleware, createContractValidation(), balancing.middleware],
  };
}

/**
 * Creates a broker hosting the given roles. No transporter: one process (embedded default). A NATS URL: the broker
 * joins the bus and calls cross it whenever the actor lives elsewhere. Code never branches on which.
 */
export function createBroker(opts: CreateBrokerOptions): BrokerHandle {
  const metrics = createMetrics();
  const { config, log } = opts;
  let dbPromise: Promise<Db> | undefined;
  const redis = config.SERVICE_REDIS_URL
    ? new Redis(config.SERVICE_REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 3 })
    : undefined;
  redis?.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));
  const infra: Infra = {
    config,
    log,
    metrics,
    roles: opts.roles.map((r) => r.name),
    redis: () => redis,
    now: opts.now ?? (() => new Date()),
    db() {
      dbPromise ??= openDb({
        databaseUrl: config.SERVICE_DATABASE_URL,
        dataDir: config.dataDir,
        poolMax: config.SERVICE_DB_POOL_MAX,
        statementTimeoutMs: config.SERVICE_DB_STATEMENT_TIMEOUT_MS,
        idleTxTimeoutMs: config.SERVICE_DB_IDLE_TX_TIMEOUT_MS,
      });
      return dbPromise;
    },
  };
  // The adapters' invoke is balanced by calls in flight (least-in-flight.strategy.ts), the rest round robin.
  const balancing = createLoadBalancing(metrics.registry);
  const broker = new moleculer.ServiceBroker(brokerOptions(opts, metrics, balancing));
  balancing.attach(broker);
  for (const role of opts.roles) for (const make of role.services) broker.createService(make(infra));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (broker.started) await drainNode(broker, config.SERVICE_DRAIN_TIMEOUT_MS, log);
      await broker.stop();
      if (dbPromise) await (await dbPromise.catch(() => undefined))?.close();
      redis?.disconnect();
    })());
  return { broker, infra, stop };
}
