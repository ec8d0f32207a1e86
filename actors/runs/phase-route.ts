import { call, type Caller as BusCaller } from '../../brokers/actions.ts';
import { HarnessConfigActions as HC } from '../../contracts/actions/harness-config.actions.ts';
import type { PhaseDef } from '../../contracts/flow-defs.ts';
import { baseRoleOf, HarnessRoleSchema, routeVarName, splitRoute, type ModelRef } from '../../contracts/harness.ts';
import type { ResolvedRoute } from '../../contracts/harness-config.ts';

/**
 * The model route of a phase brain (SPEC rule 11): role `phase_brain:<discipline>` (the harness falls back to
 * `phase_brain` within each routing source), with the phase's own `model` as the phase-level route. A phase of several
 * disciplines takes the first whose role routes somewhere else than `phase_brain` does (a route of its own), else its
 * first discipline's role. A route counts only when its provider has a healthy credential (the harness refuses the
 * call otherwise).
 */
export type BrainRoute =
  | { ok: true; role: string; route: ResolvedRoute; phase_model?: ModelRef }
  | { ok: false; role: string; message: string };

/** The roles a phase's brain may be routed by, in discipline order: each valid `phase_brain:<discipline>`, else `phase_brain`. */
export function brainRoles(phase: Pick<PhaseDef, 'disciplines'>): string[] {
  const roles = phase.disciplines.map((d) => `phase_brain:${d}`).filter((r) => HarnessRoleSchema.safeParse(r).success);
  return roles.length ? [...new Set(roles)] : ['phase_brain'];
}

/** The role a phase's brain is routed by when no discipline has a route of its own (its first discipline's). */
export const brainRole = (phase: Pick<PhaseDef, 'disciplines'>): string => brainRoles(phase)[0]!;

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
  const phase_model = phaseModelOf(phase);
  const resolve = (role: string) =>
    call(bus, HC.resolveRoute, {
      role,
      ...(phase_model ? { phase_model } : {}),
      ...(ids.project_id ? { project_id: ids.project_id } : {}),
      run_id: ids.run_id,
    });
  const roles = brainRoles(phase);
  let role = roles[0]!;
  try {
    let r = await resolve(role);
    if (roles.length > 1) {
      // A later discipline's own route (one that differs from where phase_brain goes) is the phase's route.
      const base = await resolve('phase_brain');
      const at = (x: typeof r) => (x.outcome === 'ok' ? `${x.route.provider}:${x.route.model}` : null);
      const differs = (x: typeof r) => x.outcome === 'ok' && at(x) !== at(base);
      for (const candidate of roles) {
        const c = candidate === role ? r : await resolve(candidate);
        if (differs(c)) {
          [role, r] = [candidate, c];
          break;
        }
      }
    }
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
