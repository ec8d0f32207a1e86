import type { ModelRoutingHealth } from '../../../contracts/health.ts';
import type { EffectiveRoute, ProvidersList, RoutingView } from '../../../contracts/harness-config.ts';
import type { ConfigCore } from './config.core.ts';
import { FIRST_PARTY_IDS } from './providers.ts';
import { resolveRoute, rolesNamed, routeVarName, strayRouteVars } from './routing.ts';

/**
 * The config part's read views: GET /v1/harness/routing (every role's effective route and what is wrong),
 * /health's model_routing (its status and problems) and GET /v1/harness/providers.
 */

export async function routingView(core: ConfigCore, projectId?: string): Promise<RoutingView> {
  const { sources, fileProblems } = await core.sources({ project_id: projectId });
  const problems: string[] = [];
  const credentialProblem = core.pool.problem();
  if (credentialProblem) problems.push(credentialProblem);
  if (sources.fileError) problems.push(`routing configuration error: ${sources.fileError}`);
  problems.push(...fileProblems);
  for (const name of strayRouteVars(sources.env))
    problems.push(`routing configuration error: ${name} routes no role (roles: ${rolesNamed({}).join(', ')})`);

  const selection = sources.selection ?? null;
  const selectionMismatch = selection && core.mismatch(selection);
  if (selection && selectionMismatch)
    problems.push(`the stored selection ${selection.provider}:${selection.model} is ignored: ${selectionMismatch}`);
  const usable = selection && !selectionMismatch ? selection : null;
  if (!usable) problems.push('no default model: choose one with PUT /v1/harness/selection {provider, model}');
  else if (!core.configured(usable.provider))
    problems.push(`the default provider ${usable.provider} has no healthy credential: POST /v1/harness/credentials`);

  const routes: EffectiveRoute[] = rolesNamed(sources).map((role) => {
    const r = resolveRoute(role, sources, core.mismatch);
    for (const p of r.passed_over)
      if (p.source !== 'selection')
        problems.push(`${role}: the ${p.source} route ${p.provider}:${p.model} is passed over: ${p.detail}`);
    if (!r.ok) {
      if (r.kind === 'invalid') problems.push(r.message);
      return { role, provider: null, model: null, source: null, configured: false, error: r.message };
    }
    const configured = core.configured(r.provider);
    if (!configured && r.source !== 'selection')
      problems.push(
        `${role} routes to ${r.provider}:${r.model} (${r.source}${r.source === 'env' ? ` ${routeVarName(role)}` : ''}), whose provider has no healthy credential`,
      );
    return { role, provider: r.provider, model: r.model, source: r.source, configured, error: null };
  });
  return {
    project_id: projectId ?? null,
    default_provider: usable?.provider ?? null,
    default_model: usable?.model ?? null,
    routes,
    problems: [...new Set(problems)],
  };
}

/**
 * /health's model_routing: `ok` when every role has a configured route, `unconfigured` when nothing is set up yet (no
 * credential, no selection, no route), else `problems`.
 */
export async function routingHealth(core: ConfigCore): Promise<ModelRoutingHealth> {
  const view = await routingView(core);
  if (view.problems.length === 0) return { status: 'ok', problems: [] };
  const nothing = core.pool.list().length === 0 && view.routes.every((r) => r.source === null);
  return { status: nothing ? 'unconfigured' : 'problems', problems: view.problems };
}

export function providersList(core: ConfigCore): ProvidersList {
  const credentials = core.pool.list();
  const ids = [...new Set([...FIRST_PARTY_IDS, ...credentials.map((c) => c.provider)])];
  return {
    providers: ids.map((id) => {
      const info = core.provider(id);
      return {
        id,
        family: info.family,
        base_url: info.base_url,
        first_party: info.first_party,
        configured: core.configured(id),
        credentials: credentials.filter((c) => c.provider === id),
        ...core.fallbacks.of(id),
      };
    }),
  };
}
