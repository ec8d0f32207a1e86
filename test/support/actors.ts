import { createBroker, type BrokerHandle } from '../../brokers/broker.ts';
import { loadConfig } from '../../brokers/config.ts';
import type { RoleDefinition, ServiceFactory } from '../../brokers/infra.ts';
import { createRootLogger } from '../../brokers/logger.ts';

/**
 * Starts a real broker (no transporter, in-memory PGlite unless env names PostgreSQL) hosting just the given actors:
 * for actor tests that need a seam (a fault injector, a fake adapter) the launcher's role table does not offer.
 */
export async function startActors(services: ServiceFactory[], env: Record<string, string> = {}): Promise<BrokerHandle> {
  const config = loadConfig({ SERVICE_DATA_DIR: 'memory://', SERVICE_LOG_LEVEL: 'warn', ...env });
  const roles: RoleDefinition[] = [{ name: 'test', doc: 'actors under test', services }];
  const handle = createBroker({ roles, config, log: createRootLogger({ level: 'warn', toStderr: true }) });
  await handle.broker.start();
  return handle;
}
