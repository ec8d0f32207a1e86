import type { ServiceBroker } from 'moleculer';
import { call, type Caller } from '../brokers/actions.ts';
import { HarnessUsageActions } from '../contracts/actions/harness-usage.actions.ts';
import { HarnessConfigActions } from '../contracts/actions/harness-config.actions.ts';
import { ProjectsActions } from '../contracts/actions/projects.actions.ts';
import { ToolsActions } from '../contracts/actions/tools.actions.ts';
import { KnowledgeActions } from '../contracts/actions/knowledge.actions.ts';
import { MemoryActions } from '../contracts/actions/memory.actions.ts';
import { SessionsActions } from '../contracts/actions/sessions.actions.ts';
import { TwinActions } from '../contracts/actions/twin.actions.ts';
import type { ActionDef } from '../contracts/define.ts';
import type { ComponentHealth, HealthRollup, LlmUsage24h } from '../contracts/health.ts';
import type { LinkProbe } from './health-links.ts';

/** Health actions of the actors known so far; an actor that does not answer within the probe limit is unhealthy. */
export const COMPONENT_HEALTH_ACTIONS: ActionDef<any, any>[] = [
  ProjectsActions.health,
  TwinActions.health,
  SessionsActions.health,
  KnowledgeActions.health,
  MemoryActions.health,
];

/** Per-probe limit (SPEC Limits: adapter roll-up health probe 3 s). */
export const HEALTH_PROBE_MS = 3000;

export interface HealthOptions {
  caller: Caller;
  broker: Pick<ServiceBroker, 'nodeID'>;
  version: string;
  auth: () => HealthRollup['auth'];
  /** The harness write routes' state (harness.routes.ts harnessWritesState). */
  harnessWrites?: () => NonNullable<HealthRollup['harness_writes']>;
  startedAt?: number;
  /** This node's own links (bus, database: `health-links.ts`); an unhealthy one makes the roll-up degraded. */
  links?: LinkProbe[];
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

/** /health's model_routing from the harness (its routing problems); `unavailable` when the harness does not answer. */
async function modelRouting(caller: Caller): Promise<HealthRollup['model_routing']> {
  try {
    return await call(caller, HarnessConfigActions.routingHealth, {}, { timeout: HEALTH_PROBE_MS, retries: 0 });
  } catch (err) {
    return { status: 'unavailable', problems: [`the agent harness did not answer: ${(err as Error).message}`] };
  }
}

async function adapterRollup(caller: Caller) {
  try {
    return {
      ...(await call(caller, ToolsActions.adapters, {}, { timeout: HEALTH_PROBE_MS + 1000, retries: 0 })),
      registry: true,
    };
  } catch (err) {
    return { adapters: [], tool_count: 0, registry: false, error: (err as Error).message };
  }
}

/** The trailing-24-hour usage from the harness's call ledger; `available: false` with the reason when it cannot be read. */
async function llmUsage24h(caller: Caller): Promise<LlmUsage24h> {
  try {
    const s = await call(
      caller,
      HarnessUsageActions.usageSummary,
      { window_hours: 24 },
      { timeout: HEALTH_PROBE_MS, retries: 0 },
    );
    return { available: true, ...s.usage };
  } catch (err) {
    return { available: false, reason: `the harness usage ledger cannot be read: ${(err as Error).message}` };
  }
}

/**
 * The unified roll-up of `GET /health` and `health/check`: `healthy` only when every adapter (and actor) answered, else
 * `degraded` (both answer 200). `tools_registered` keeps the last known count of an adapter that is down; `reachable`
 * says whether calls can work; `unreachable_adapters` and `detail` appear only when something is wrong.
 */
export function createHealth(opts: HealthOptions): (client?: HealthRollup['client']) => Promise<HealthRollup> {
  const startedAt = opts.startedAt ?? Date.now();
  return async (client = { can_elicit: false }) => {
    const [components, tools, llmUsage, model_routing, links] = await Promise.all([
      Promise.all(COMPONENT_HEALTH_ACTIONS.map((def) => probe(opts.caller, def))),
      adapterRollup(opts.caller),
      llmUsage24h(opts.caller),
      modelRouting(opts.caller),
      Promise.all((opts.links ?? []).map((p) => p())),
    ]);
    components.push(...links);
    if (!tools.registry)
      components.push({
        name: 'tools',
        status: 'unhealthy',
        latency_ms: null,
        message: tools.error ?? 'registry not reachable',
      });
    const down = components.filter((c) => c.status !== 'healthy');
    const unreachable = tools.adapters.filter((a) => !a.reachable);
    const rollup: HealthRollup = {
      service: 'service',
      status: down.length || unreachable.length ? 'degraded' : 'healthy',
      version: opts.version,
      uptime_seconds: (Date.now() - startedAt) / 1000,
      adapter_count: tools.adapters.length,
      tool_count: tools.tool_count,
      adapters: tools.adapters,
      auth: opts.auth(),
      client,
      llm_usage_24h: llmUsage,
      model_routing,
      ...(opts.harnessWrites ? { harness_writes: opts.harnessWrites() } : {}),
      components,
    };
    if (unreachable.length) rollup.unreachable_adapters = unreachable.map((a) => a.adapter_id);
    const problems = [
      ...down.map((c) => `${c.name}: ${c.message || c.status}`),
      ...unreachable.map((a) => `adapter ${a.adapter_id}: ${a.error ?? 'unreachable'}`),
    ];
    if (problems.length) rollup.detail = problems.join('; ');
    return rollup;
  };
}
