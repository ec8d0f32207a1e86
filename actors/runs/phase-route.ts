import { call, type Caller as BusCaller } from '../../brokers/actions.ts';
import { HarnessConfigActions as HC } from '../../contracts/actions/harness-config.actions.ts';
import type { PhaseDef } from '../../contracts/flow-defs.ts';
import { baseRoleOf, HarnessRoleSchema, routeVarName, splitRoute, type ModelRef } from '../../contracts/harness.ts';
import type { ResolvedRoute } from '../../contracts/harness-config.ts';

/**
 * The model route of a phase brain (SPEC rule 11): role `phase_brain:<discipline>` (the phase's first discipline; the
 * harness falls back to `phase_brain` within each routing source), with the phase's own `model` as the phase-level
 * route. A route counts only when its provider has a healthy credential (the harness refuses the call otherwise).
 */
export type BrainRoute =
  | { ok: true; role: string; route: ResolvedRoute; phase_model?: ModelRef }
  | { ok: false; role: string; message: string };

/** The role a phase's brain is routed by: `phase_brain:<first discipline>` when that is a valid role, else `phase_brain`. */
export function brainRole(phase: Pick<PhaseDef, 'disciplines'>): string {
  const first = phase.disciplines[0];
  const role = first ? `phase_brain:${first}` : 'phase_brain';
  return HarnessRoleSchema.safeParse(role).success ? role : 'phase_brain';
}

/** The phase's `model` (`provider:model`, the model part may hold colons) as the harness's phase route. */
export function phaseModelOf(phase: Pick<PhaseDef, 'model'>): ModelRef | undefined {
  return phase.model ? splitRoute(phase.model) : undefined;
}

/** What to configure for a role: its variable, the routes file, and a credential (named in a failure message). */
export const routeHint = (role: string) => {
  const base = baseRoleOf(role);
  return `configure a route with ${routeVarName(role)}=<provider>:<model>${base ? ` or ${routeVarName(base)}` : ''}, the SERVICE_MODEL_ROUTES_PATH file, or the project's routes (PUT /v1/harness/routing/projects/{id}), and a credential for its provider (POST /v1/harness/credentials)`;
};

/**
 * Asks the harness (`harness.resolveRoute`, a routing lookup: no model call) for the phase's brain route. A harness
 * that is not on the bus, or that fails, counts as no route, saying why; never throws.
 */
export async function brainRoute(
  bus: BusCaller,
  phase: PhaseDef,
  ids: { project_id: string | null; run_id: string },
): Promise<BrainRoute> {
  const role = brainRole(phase);
  const phase_model = phaseModelOf(phase);
  try {
    const r = await call(bus, HC.resolveRoute, {
      role,
      ...(phase_model ? { phase_model } : {}),
      ...(ids.project_id ? { project_id: ids.project_id } : {}),
      run_id: ids.run_id,
    });
    if (r.outcome === 'failed') return { ok: false, role, message: r.failure.message };
    if (!r.route.configured)
      return {
        ok: false,
        role,
        message: `${role} routes to ${r.route.provider}:${r.route.model}, whose provider has no healthy credential`,
      };
    return { ok: true, role, route: r.route, ...(phase_model ? { phase_model } : {}) };
  } catch (err) {
    return { ok: false, role, message: `the harness could not be asked for ${role} (${(err as Error).message})` };
  }
}
