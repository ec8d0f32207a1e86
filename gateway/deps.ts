import type { Registry } from 'prom-client';
import type { Caller } from '../brokers/actions.ts';
import type { Db } from '../brokers/db/index.ts';
import type { Logger } from '../brokers/logger.ts';
import type { ServiceConfig } from '../brokers/config.ts';
import type { HealthRollup } from '../contracts/health.ts';
import type { McpPluginDeps } from './mcp/plugin.ts';

import type { DashboardOptions } from './plugins/dashboard.ts';

/** Everything the gateway needs, injected (STYLE R5, R10): the app is built from these and never reaches for globals. */
export interface GatewayDeps {
  /** Calls actors through the broker (the root of every request's context chain). */
  caller: Caller;
  config: ServiceConfig;
  log: Logger;
  registry: Registry;
  /** Builds the health roll-up (probes actors and adapters). */
  health(): Promise<HealthRollup>;
  /** The gateway's own database connection, for file and field bytes read straight from the blob store (never over the bus). */
  db?: () => Promise<Db>;
  /** The tool server's state and core; absent in tests of the plain gateway. */
  mcp?: McpPluginDeps;
  /** Where the dashboard's built files are (default dashboard/dist); false mounts no dashboard. */
  dashboard?: DashboardOptions | false;
}
