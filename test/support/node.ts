import { loadConfig } from '../../brokers/config.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { startNode, type StartedNode } from '../../brokers/launcher/node.ts';

export interface TestNode {
  node: StartedNode;
  /** Base URL of the gateway when this node hosts it. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real node in this process: the same path as the launcher, on a free port, with an in-memory PGlite
 * database unless `env` names a PostgreSQL URL.
 */
export async function startTestNode(opts: { roles?: string; env?: Record<string, string> } = {}): Promise<TestNode> {
  const config = loadConfig({
    SERVICE_PORT: '0',
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const log = createRootLogger({ level: config.SERVICE_LOG_LEVEL, toStderr: true });
  const node = await startNode({ roles: opts.roles ?? 'all', config, log });
  const addr = node.gateway.address;
  return {
    node,
    url: addr ? `http://127.0.0.1:${addr.port}` : '',
    stop: () => node.stop(),
  };
}
