import type { ServiceBroker } from 'moleculer';
import { call, type Caller } from '../brokers/actions.ts';
import { ProjectsActions } from '../contracts/actions/projects.actions.ts';
import type { ActionDef } from '../contracts/define.ts';
import type { ComponentHealth, HealthRollup } from '../contracts/health.ts';

/** Health actions of the actors known so far; an actor that does not answer within the probe limit is unreachable. */
export const COMPONENT_HEALTH_ACTIONS: ActionDef<any, any>[] = [ProjectsActions.health];

/** Per-probe limit (SPEC Limits: adapter roll-up health probe 3 s). */
export const HEALTH_PROBE_MS = 3000;

export interface HealthOptions {
  caller: Caller;
  broker: Pick<ServiceBroker, 'nodeID'>;
  version: string;
  auth: () => HealthRollup['auth'];
  startedAt?: number;
}

async function probe(caller: Caller, def: ActionDef<any, any>): Promise<ComponentHealth> {
  const name = def.action.split('.')[0];
  const started = performance.now();
  try {
    return await call(caller, def, {}, { timeout: HEALTH_PROBE_MS, retries: 0 });
  } catch (err) {
    return { name, status: 'unhealthy', latency_ms: performance.now() - started, message: (err as Error).message };
  }
}

/**
 * The unified roll-up of `GET /health` and `health/check`: `healthy` only when every component and adapter answered,
 * else `degraded` (both answer 200). `unreachable_adapters` and `detail` appear only when something is wrong.
 */
export function createHealth(opts: HealthOptions): () => Promise<HealthRollup> {
  const startedAt = opts.startedAt ?? Date.now();
  return async () => {
    const components = await Promise.all(COMPONENT_HEALTH_ACTIONS.map((def) => probe(opts.caller, def)));
    const down = components.filter((c) => c.status !== 'healthy');
    const rollup: HealthRollup = {
      service: 'service',
      status: down.length ? 'degraded' : 'healthy',
      version: opts.version,
      uptime_seconds: (Date.now() - startedAt) / 1000,
      adapter_count: 0,
      tool_count: 0,
      adapters: [],
      auth: opts.auth(),
      client: { can_elicit: false },
      llm_usage_24h: { available: false, reason: 'the agent harness is not part of this deployment' },
      model_routing: { status: 'unconfigured', problems: [] },
      components,
    };
    if (down.length) rollup.detail = down.map((c) => `${c.name}: ${c.message || c.status}`).join('; ');
    return rollup;
  };
}
