import type { Context } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { adapterActions } from '../../contracts/actions/adapters.actions.ts';
import { FirmwareActions } from '../../contracts/actions/firmware.actions.ts';
import { HarnessConfigActions as HC } from '../../contracts/actions/harness-config.actions.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';
import { PROFILE_NAMES } from '../../contracts/profiles.ts';
import { DELIVERABLE_TOOLS, type CapabilityInputs } from './capabilities.ts';
import type { HandlerTable } from './executors.ts';
import type { ModelRoutes, UnavailableTools } from './phase-readiness.ts';

/** SPEC Limits: an adapter health probe answers within 3 s (as the registry's roll-up). */
const HEALTH_PROBE_MS = 3000;

/** The registered tools (optionally a profile's), for capability reports; VALIDATION_FAILED for an unknown profile. */
export async function registeredTools(ctx: Context, profile?: string) {
  if (profile && !PROFILE_NAMES.includes(profile)) {
    throw new ActorError(
      'VALIDATION_FAILED',
      `unknown profile ${JSON.stringify(profile)}; valid: ${PROFILE_NAMES.join(', ')}`,
      { issues: [{ path: 'profile', message: 'unknown profile' }], valid: PROFILE_NAMES },
    );
  }
  const l = await call(ctx, ToolsActions.list, { profile });
  return { tools: l.tools, ids: l.tools.map((t) => t.tool_id), unavailable: l.unavailable_adapters };
}

/**
 * Registered tools the flow's deliverables need that cannot run, from their adapters' own health (`adapters.<id>.health`:
 * `unavailable_tools` of a degraded adapter, every tool of an unhealthy one). The registry's roll-up (`tools.adapters`)
 * does not carry `unavailable_tools`, so the adapters are asked directly. An adapter that does not answer leaves its
 * tools unknown: they count as unable to run, saying why.
 */
async function unavailableTools(ctx: Context, def: FlowDef, registered: { tool_id: string; adapter_id: string }[]) {
  const wanted = new Set(
    def.phases.flatMap((p) =>
      p.required_deliverables.flatMap((t) => {
        const spec = Object.hasOwn(DELIVERABLE_TOOLS, t) ? DELIVERABLE_TOOLS[t] : undefined;
        return spec ? [spec.record, ...(spec.produce ?? []).flat()] : [];
      }),
    ),
  );
  const byAdapter = new Map<string, string[]>();
  for (const t of registered.filter((x) => wanted.has(x.tool_id)))
    byAdapter.set(t.adapter_id, [...(byAdapter.get(t.adapter_id) ?? []), t.tool_id]);
  const out: Record<string, string> = {};
  await Promise.all(
    [...byAdapter].map(async ([id, tools]) => {
      try {
        const h = await call(ctx, adapterActions(id).health, {}, { timeout: HEALTH_PROBE_MS, retries: 0 });
        const why = `adapter ${id} reports it unavailable${h.message ? ` (${h.message})` : ''}`;
        const down = h.status === 'unhealthy' ? tools : tools.filter((t) => h.unavailable_tools?.includes(t));
        for (const t of down) out[t] = why;
      } catch (err) {
        for (const t of tools) out[t] = `adapter ${id} did not answer its health probe (${(err as Error).message})`;
      }
    }),
  );
  return out as UnavailableTools;
}

/**
 * The harness's routes (`harness.routing`, which lists `phase_brain` and any `phase_brain:<discipline>` route), or
 * why they are unknown: a topology without the harness, or a harness that fails, counts as no route.
 */
async function modelRoutes(ctx: Context): Promise<ModelRoutes> {
  if (!ctx.broker.registry.actions.isAvailable(HC.routing.action))
    return { reachable: false, reason: `${HC.routing.action} is not served on the bus` };
  try {
    return { reachable: true, routes: (await call(ctx, HC.routing, {})).routes };
  } catch (err) {
    return { reachable: false, reason: `${HC.routing.action} failed: ${(err as Error).message}` };
  }
}

/**
 * Phases whose handler needs an engine actor beside the registry's tools, and that actor's health action: firmware
 * builds on the firmware actor (gcc). Absent from the bus or not healthy, the phase cannot run, saying why.
 */
const PHASE_ENGINES = {
  firmware: { health: FirmwareActions.health, role: 'firmware', needs: 'gcc, Debian package gcc' },
};

/** Why each phase with a handler cannot reach its engine actor (phase id -> sentence); phases that can are absent. */
async function engineGaps(ctx: Context, def: FlowDef, handlers: ReadonlySet<string>) {
  const out: Record<string, string> = {};
  const wanted = def.phases.filter((p) => handlers.has(p.id) && Object.hasOwn(PHASE_ENGINES, p.id));
  await Promise.all(
    wanted.map(async (p) => {
      const e = PHASE_ENGINES[p.id as keyof typeof PHASE_ENGINES];
      if (!ctx.broker.registry.actions.isAvailable(e.health.action)) {
        out[p.id] = `the ${e.role} actor is not reachable: no node hosts role ${e.role} (it builds with ${e.needs})`;
        return;
      }
      try {
        const h = await call(ctx, e.health, {}, { timeout: HEALTH_PROBE_MS, retries: 0 });
        if (h.status !== 'healthy') out[p.id] = `the ${e.role} actor cannot build: ${h.message ?? h.status}`;
      } catch (err) {
        out[p.id] =
          `the ${e.role} actor did not answer its health probe (${(err as Error).message}; it builds with ${e.needs})`;
      }
    }),
  );
  return out;
}

/** The phase ids of a flow with a deterministic handler in the executor's table (own keys only: ids come from URLs). */
export function handlerPhases(table: HandlerTable, flowId: string): ReadonlySet<string> {
  return new Set(Object.hasOwn(table, flowId) ? Object.keys(table[flowId]) : []);
}

/** Everything `capabilityReport` needs for one flow, read over the bus: tools, their engines, handlers, routes. */
export async function capabilityInputs(
  ctx: Context,
  def: FlowDef,
  handlers: HandlerTable,
  profile?: string,
): Promise<CapabilityInputs> {
  const tools = await registeredTools(ctx, profile);
  const phases = handlerPhases(handlers, def.id);
  const [unavailable, routes, engines] = await Promise.all([
    unavailableTools(ctx, def, tools.tools),
    modelRoutes(ctx),
    engineGaps(ctx, def, phases),
  ]);
  return {
    toolIds: tools.ids,
    unavailableAdapters: tools.unavailable,
    unavailableTools: unavailable,
    handlers: phases,
    routes,
    engineGaps: engines,
  };
}
