import type { Redis } from 'ioredis';
import type { ServiceSchema } from 'moleculer';
import type { ServiceConfig } from './config.ts';
import type { Db } from './db/index.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

/**
 * What a broker carries for its actors (ARCHITECTURE "brokers/"): configuration, logger, the one metrics registry,
 * the database (opened lazily, once, only by processes hosting an actor that owns tables) and Redis when configured.
 */
export interface Infra {
  readonly config: ServiceConfig;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** The process's database, migrated; the same instance on every call. */
  db(): Promise<Db>;
  /** Shared Redis connection when `SERVICE_REDIS_URL` is set. */
  redis(): Redis | undefined;
  /** Roles this process hosts (after expanding `all`). */
  readonly roles: readonly string[];
  /** Wall-clock source; tests inject their own. */
  now(): Date;
}

/** Builds the Moleculer service schema of one actor from the process's infrastructure. */
export type ServiceFactory = (infra: Infra) => ServiceSchema;

/** One launchable role: a name, what it hosts, and whether it needs the database. */
export interface RoleDefinition {
  name: string;
  doc: string;
  services: ServiceFactory[];
}
