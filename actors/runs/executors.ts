import type { PhaseExecutor, PhaseInput, PhaseOutcome } from './executor.ts';
import { runPhaseBrain } from './phase-brain.ts';
import { brainRoute, routeHint, type BrainRoute } from './phase-route.ts';

/** Deterministic phase handlers by flow and phase id. A phase without one (or whose flow names a model) wants a model. */
export type HandlerTable = Record<string, Record<string, PhaseExecutor>>;

/** `SERVICE_PHASE_BRAIN`: `deterministic` (default) runs a phase's handler when it has one; `model` asks for the brain. */
export type BrainMode = 'deterministic' | 'model';

export interface ExecutorOptions {
  brain?: BrainMode;
  /** Test seams: the route lookup and the model-driven executor (default: the harness over the bus). */
  route?: (input: PhaseInput) => Promise<BrainRoute>;
  runBrain?: (input: PhaseInput, route: Extract<BrainRoute, { ok: true }>) => Promise<PhaseOutcome>;
}

/** The honest failure of a phase that needs a model and has no route: never a fake success. */
export function noRouteFailure(input: PhaseInput, route: Extract<BrainRoute, { ok: false }>): PhaseOutcome {
  const why = input.phase.model ? `; the flow names ${input.phase.model}` : '';
  return {
    ok: false,
    kind: 'environment',
    message: `phase ${input.phase.id} needs a model (no deterministic handler${why}), and no ${route.role} route is usable: ${route.message}; ${routeHint(route.role)}`,
  };
}

/**
 * Picks how a phase runs. Deterministic by default: a phase with a handler runs it. The model brain (one
 * `harness.turn`, actors/runs/phase-brain.ts) runs a phase when (a) it has no handler, (b) the flow version names a
 * `model` for it, or (c) `SERVICE_PHASE_BRAIN=model`, and only when its `phase_brain` route is configured; without one,
 * (b) and (c) fall back to the handler, and a phase without a handler fails `environment` naming the route to configure.
 */
export function executorFor(table: HandlerTable, opts: ExecutorOptions = {}): PhaseExecutor {
  const route = opts.route ?? ((input: PhaseInput) => brainRoute(input.bus, input.phase, input));
  const runBrain = opts.runBrain ?? runPhaseBrain;
  return async (input) => {
    const byFlow = Object.hasOwn(table, input.flow_id) ? table[input.flow_id] : undefined;
    const handler = byFlow && Object.hasOwn(byFlow, input.phase.id) ? byFlow[input.phase.id] : undefined;
    const wantsModel = !handler || !!input.phase.model || opts.brain === 'model';
    if (!wantsModel) return handler(input);
    const r = await route(input);
    if (r.ok) return runBrain(input, r);
    return handler ? handler(input) : noRouteFailure(input, r);
  };
}
