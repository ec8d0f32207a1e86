import crypto from 'node:crypto';
import type { ServiceBroker } from 'moleculer';
import { call } from '../../../brokers/actions.ts';
import { createBroker, type BrokerHandle } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { TEST_SERVERS } from '../../support/servers.ts';
import { spawnService, type SpawnedService } from '../../support/spawn.ts';
import { until } from './until.ts';

/**
 * A cluster for bench:scale on the real NATS bus: one caller process (role `tools`: the registry, its dispatch and its
 * LeastInFlight balancer), adapter processes of one role added one by one, and a bare bus client in the bench process
 * that sends `tools.call` to the caller and times each call.
 */
export interface ScaleCluster {
  client: BrokerHandle;
  adapters: SpawnedService[];
  /** Starts one more adapter process and waits until the client sees its `invoke` on the bus. */
  addAdapter(): Promise<void>;
  /** One tool call through the caller, with its latency (ms) and its wait: latency minus the adapter's own run time. */
  callTool(name: string, args: Record<string, unknown>): Promise<{ result: ToolResult; ms: number; waitMs: number }>;
  stop(): Promise<void>;
}

export async function startScaleCluster(opts: {
  role: string;
  adapterId: string;
  env: Record<string, string>;
}): Promise<ScaleCluster> {
  const ns = `scale-${crypto.randomBytes(3).toString('hex')}`;
  const env = {
    SERVICE_TRANSPORTER: TEST_SERVERS.natsUrl,
    SERVICE_NAMESPACE: ns,
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_LOG_LEVEL: 'info',
    SERVICE_REQUEST_TIMEOUT_MS: '900000',
    ...opts.env,
  };
  const caller = spawnService(['--roles', 'tools', '--port', '0'], { ...env, SERVICE_NODE_ID: `${ns}-caller` });
  const config = loadConfig({ ...env, SERVICE_NODE_ID: `${ns}-bench`, SERVICE_LOG_LEVEL: 'error' });
  const client = createBroker({
    roles: [{ name: 'bench', doc: 'bench:scale client', services: [] }],
    transporter: config.SERVICE_TRANSPORTER,
    config,
    log: createRootLogger({ level: 'error', toStderr: true }),
  });
  await client.broker.start();
  await caller.waitFor('node_ready', 60_000);
  await client.broker.waitForServices(['tools'], 30_000);
  const adapters: SpawnedService[] = [];
  const invokeNodes = (b: ServiceBroker) =>
    b.registry.getActionEndpoints(`adapters.${opts.adapterId}.invoke`)?.endpoints.length ?? 0;

  return {
    client,
    adapters,
    async addAdapter() {
      const n = adapters.length + 1;
      const proc = spawnService(['--roles', opts.role, '--port', '0'], {
        ...env,
        SERVICE_NODE_ID: `${ns}-${opts.adapterId}-${n}`,
      });
      adapters.push(proc);
      await proc.waitFor('node_ready', 120_000);
      await until(async () => (invokeNodes(client.broker) === n ? true : undefined), {
        what: `${n} ${opts.adapterId} replicas on the bus`,
        timeoutMs: 30_000,
      });
    },
    async callTool(name, args) {
      const t = performance.now();
      const result = await call(
        client.broker,
        ToolsActions.call,
        {
          name,
          arguments: args,
          call_id: `b-${crypto.randomUUID()}`,
          caller: { kind: 'stdio', transport: 'stdio' },
          timeout_seconds: 1800,
        },
        { timeout: 1_900_000 },
      );
      const ms = performance.now() - t;
      return { result, ms, waitMs: Math.max(0, ms - result.duration_ms) };
    },
    async stop() {
      await client.stop();
      await Promise.all([...adapters, caller].map((p) => p.kill('SIGTERM')));
    },
  };
}
