import type { GatewayRuntime } from '../../gateway/gateway.service.ts';
import { createBroker, type BrokerHandle } from '../broker.ts';
import type { ServiceConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { resolveRoles, roleTable } from './roles.ts';

export interface StartedNode extends BrokerHandle {
  /** The gateway's address when this node hosts the gateway role. */
  gateway: GatewayRuntime;
}

/**
 * Starts one node: the broker with its roles, joined to the bus when `SERVICE_TRANSPORTER` is set.
 * Used by the launcher and by tests, so both exercise the same start-up path.
 */
export async function startNode(opts: { roles: string; config: ServiceConfig; log: Logger; now?: () => Date }): Promise<StartedNode> {
  const gateway: GatewayRuntime = {};
  const roles = resolveRoles(opts.roles, roleTable(gateway));
  const handle = createBroker({ roles, transporter: opts.config.SERVICE_TRANSPORTER, config: opts.config, log: opts.log, now: opts.now });
  try {
    await handle.broker.start();
  } catch (err) {
    await handle.stop().catch(() => undefined);
    throw err;
  }
  return { ...handle, gateway };
}
