import type { PhaseDriver } from '../../contracts/design-flows.ts';
import type { EffectiveRoute } from '../../contracts/harness-config.ts';
import type { PhaseDef } from '../../contracts/flow-defs.ts';
import { brainRole, brainRoles } from './phase-route.ts';

/**
 * The harness's phase_brain routes (`harness.routing`), or why they could not be read: a harness that is not reachable
 * counts as no route, and the report says so.
 */
export type ModelRoutes = { reachable: true; routes: EffectiveRoute[] } | { reachable: false; reason: string };

/** Registered tools that cannot run: tool id -> why (its adapter lists it in `unavailable_tools`, or is unhealthy). */
export type UnavailableTools = Readonly<Record<string, string>>;

/**
 * The route that would drive the phase, as the executor picks it: the first discipline's role with a route of its own
 * (the routing view lists such a role), else `phase_brain`.
 */
function routeOf(phase: PhaseDef, routes: EffectiveRoute[]): EffectiveRoute | undefined {
  const own = brainRoles(phase)
    .map((role) => routes.find((x) => x.role === role))
    .find((x) => x?.provider && x.model);
  return own ?? routes.find((x) => x.role === brainRole(phase)) ?? routes.find((x) => x.role === 'phase_brain');
}

/** The phase's model route: usable (routed and credentialed), or a sentence saying why not. */
function routeState(phase: PhaseDef, routes: ModelRoutes): { present: boolean; text: string } {
  const roles = [...new Set([brainRole(phase), 'phase_brain'])].join(' or ');
  if (!routes.reachable)
    return { present: false, text: `no model route: the harness could not be asked for ${roles} (${routes.reason})` };
  const r = routeOf(phase, routes.routes);
  if (!r || !r.provider || !r.model) {
    const why = r?.error ? `: ${r.error}` : '';
    return {
      present: false,
      text: `no model route for ${roles}${why} (SERVICE_ROUTE_PHASE_BRAIN or SERVICE_MODEL_ROUTES_PATH)`,
    };
  }
  const route = `${r.role} -> ${r.provider}:${r.model}`;
  if (!r.configured)
    return { present: false, text: `the model route ${route} has no healthy credential for ${r.provider}` };
  return { present: true, text: `model route ${route}` };
}

/**
 * What drives a phase and what is missing for it to run now (pure), picked as the executor picks it (`executorFor`):
 * its deterministic handler unless the flow names a model for it or `brain` is `model`, in which case the phase brain
 * when a phase_brain route is usable (a flow's own `model` route counts when the phase_brain routing does; its
 * credential is checked when the phase runs), else the handler; a phase without a handler needs the route.
 */
export function phaseDriver(
  flowId: string,
  phase: PhaseDef,
  handlers: ReadonlySet<string>,
  routes: ModelRoutes,
  brain: 'deterministic' | 'model' = 'deterministic',
): { handler: PhaseDriver; missing: string[] } {
  const has = handlers.has(phase.id);
  if (has && !phase.model && brain === 'deterministic') return { handler: 'deterministic', missing: [] };
  const route = routeState(phase, routes);
  if (route.present) return { handler: 'model', missing: [] };
  if (has) return { handler: 'deterministic', missing: [] };
  return { handler: 'none', missing: [`no deterministic handler for phase ${phase.id} of ${flowId}`, route.text] };
}

/** Missing-engine sentences for the tools a phase's deliverables need: not registered, or registered but unable to run. */
export function toolGaps(
  type: string,
  wanted: string[],
  registered: ReadonlySet<string>,
  unavailable: UnavailableTools,
  unreachableAdapters: ReadonlySet<string>,
): string[] {
  return wanted.flatMap((t) => {
    const adapter = t.split('.')[0];
    if (Object.hasOwn(unavailable, t)) return [`tool ${t} (for ${type}) cannot run: ${unavailable[t]}`];
    if (registered.has(t)) return [];
    if (unreachableAdapters.has(adapter))
      return [`tool ${t} (for ${type}) is not available: adapter ${adapter} is not reachable`];
    return [`tool ${t} (for ${type}) is not among the registered tools (adapter ${adapter})`];
  });
}
