import type { FastifyInstance } from 'fastify';
import type { ServiceSchema } from 'moleculer';
import type { Infra } from '../brokers/infra.ts';
import { buildGateway } from './app.ts';
import { createHealth } from './health.ts';

/** Where the gateway ended up listening; filled once it listens (port 0 picks a free one). */
export interface GatewayRuntime {
  address?: { host: string; port: number };
}

/**
 * The `gateway` actor: owns the HTTP server. Thin: parse with contracts, call actors through the broker, map errors
 * to statuses. Starts listening in `started()` and drains in-flight requests in `stopped()`.
 */
export function createGatewayService(infra: Infra, runtime: GatewayRuntime = {}): ServiceSchema {
  let app: FastifyInstance | undefined;
  return {
    name: 'gateway',

    async started() {
      const broker = this.broker;
      const health = createHealth({ caller: broker, broker, version: '0.1.0', auth: () => (infra.config.SERVICE_MCP_API_KEY ? 'api_key' : 'open') });
      app = await buildGateway({ caller: broker, config: infra.config, log: infra.log, registry: infra.metrics.registry, health });
      await app.listen({ host: infra.config.SERVICE_HOST, port: infra.config.SERVICE_PORT });
      const addr = app.server.address();
      if (addr && typeof addr === 'object') runtime.address = { host: infra.config.SERVICE_HOST, port: addr.port };
    },

    async stopped() {
      await app?.close();
    },
  };
}
