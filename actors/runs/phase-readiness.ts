import type { PhaseDriver } from '../../contracts/design-flows.ts';
import type { EffectiveRoute } from '../../contracts/harness-config.ts';
import type { PhaseDef } from '../../contracts/flow-defs.ts';

/**
 * The harness's phase_brain routes (`harness.routing`), or why they could not be read: a harness that is not reachable
 * counts as no route, and the report says so.
 */
export type ModelRoutes = { reachable: true; routes: EffectiveRoute[] } | { reachable: false; reason: string };

/** Registered tools that cannot run: tool id -> why (its adapter lists it in `unavailable_tools`, or is unhealthy). */
export type UnavailableTools = Readonly<Record<string, string>>;

/** Why a model route alone does not make a phase runnable (actors/runs/executors.ts `llmSlot`). */
export const MODEL_NOT_RUN =
  'model-driven phases are not run by this version of the service (the LLM phase slot answers an environment failure)';

/** The phase_brain route that would drive the phase: the first `phase_brain:<discipline>` route, else `phase_brain`. */
function routeOf(phase: PhaseDef, routes: EffectiveRoute[]): EffectiveRoute | undefined {
  const roles = [...phase.disciplines.map((d) => `phase_brain:${d}`), 'phase_brain'];
  for (const role of roles) {
    const r = routes.find((x) => x.role === role);
    if (r) return r;
  }
  return undefined;
}

/** One sentence on the phase's model route: present (and why that is not enough), broken, or absent. */
function routeSentence(phase: PhaseDef, routes: ModelRoutes): { present: boolean; text: string } {
  const roles = [...phase.disciplines.map((d) => `phase_brain:${d}`), 'phase_brain'].join(' or ');
  if (!routes.reachable)
    return { present: false, text: `no model route: the harness could not be asked for ${roles} (${routes.reason})` };
  const r = routeOf(phase, routes.routes);
  if (!r || !r.provider || !r.model) {
    const why = r?.error ? `: ${r.error}` : '';
    return { present: false, text: `no model route for ${roles}${why}` };
  }
  const route = `${r.role} -> ${r.provider}:${r.model}`;
  if (!r.configured)
    return {
      present: false,
      text: `the model route ${route} has no healthy credential for ${r.provider}, and ${MODEL_NOT_RUN}`,
    };
  return { present: true, text: `a model route exists (${route}), but ${MODEL_NOT_RUN}` };
}

/**
 * What drives a phase and what is missing for it to run now (pure). The phase runs only through its deterministic
 * handler, picked as the executor picks it (`executorFor`: a phase naming a model skips its handler); a model route is
 * reported but never makes the phase runnable, because this version does not run model-driven phases.
 */
export function phaseDriver(
  flowId: string,
  phase: PhaseDef,
  handlers: ReadonlySet<string>,
  routes: ModelRoutes,
): { handler: PhaseDriver; missing: string[] } {
  const has = handlers.has(phase.id);
  if (has && !phase.model) return { handler: 'deterministic', missing: [] };
  if (phase.model)
    return {
      handler: 'model',
      missing: [
        `the flow names model ${phase.model} for phase ${phase.id}${has ? ', so its deterministic handler is not used' : ''}, and ${MODEL_NOT_RUN}`,
      ],
    };
  const route = routeSentence(phase, routes);
  return {
    handler: route.present ? 'model' : 'none',
    missing: [`no deterministic handler for phase ${phase.id} of ${flowId}`, route.text],
  };
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
