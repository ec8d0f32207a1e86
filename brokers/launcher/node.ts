import type { GatewayRuntime } from '../../gateway/gateway.service.ts';
import { createBroker, type BrokerHandle } from '../broker.ts';
import { serveMetrics } from '../metrics-server.ts';
import type { ServiceConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { resolveRoles, roleTable, type RoleOverrides } from './roles.ts';

export interface StartedNode extends BrokerHandle {
  /** The gateway's address when this node hosts the gateway role. */
  gateway: GatewayRuntime;
  /** The port of the node's own metrics server (SERVICE_METRICS_PORT), when it serves one. */
  metricsPort?: number;
}

/**
 * Starts one node: the broker with its roles, joined to the bus when `SERVICE_TRANSPORTER` is set.
 * Used by the launcher and by tests, so both exercise the same start-up path.
 */
export async function startNode(opts: {
  roles: string;
  config: ServiceConfig;
  log: Logger;
  now?: () => Date;
  transport?: GatewayRuntime['transport'];
  onStdioClosed?: () => void;
  /** Replaces the services of named roles; only tests and benchmarks pass it (the launcher never does). */
  overrides?: RoleOverrides;
}): Promise<StartedNode> {
  const gateway: GatewayRuntime = { transport: opts.transport ?? 'http', onStdioClosed: opts.onStdioClosed };
  const roles = resolveRoles(opts.roles, roleTable(gateway, process.env, opts.overrides));
  const handle = createBroker({
    roles,
    transporter: opts.config.SERVICE_TRANSPORTER,
    config: opts.config,
    log: opts.log,
    now: opts.now,
  });
  let metrics: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  const stop = async () => {
    await handle.stop();
    await metrics?.close();
  };
  try {
    await handle.broker.start();
    await cacherReady(handle.broker.cacher as { connected?: boolean } | undefined);
    await gateway.serve?.();
    const port = opts.config.SERVICE_METRICS_PORT;
    if (port !== undefined)
      metrics = await serveMetrics(handle.infra.metrics.registry, { host: opts.config.SERVICE_HOST, port });
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  return { ...handle, stop, gateway, metricsPort: metrics?.port };
}

/**
 * `broker.start()` resolves before the Redis cacher connects (notes/runtime.md); until then identical calls run twice
 * and nothing is cached. Wait for it, up to 5 s, then go on uncached rather than refuse to start.
 */
async function cacherReady(cacher: { connected?: boolean } | undefined): Promise<void> {
  if (!cacher || cacher.connected !== false) return;
  const until = Date.now() + 5000;
  while (!cacher.connected && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
