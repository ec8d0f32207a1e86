import { action } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { HarnessConfigActions as A } from '../../../contracts/actions/harness-config.actions.ts';
import type { HarnessContext, HarnessPart } from '../context.ts';
import { createConfigCore, type ConfigCore } from './config.core.ts';
import { createConfigStore, type ConfigStore } from './config.store.ts';
import { needsBaseUrl } from './providers.ts';
import { parseRoute, type RouteRef } from './routing.ts';
import { providersList, routingHealth, routingView } from './views.ts';

export type { ConfigCore, RouteAsk, RouteOutcome } from './config.core.ts';
export type { CredentialOutcome, PickedCredential } from './credentials.ts';
export type { FallbackInput } from './fallback.ts';
export { modelFits, modelMismatch } from './model-fit.ts';
export { resolveRoute } from './routing.ts';

const cores = new WeakMap<HarnessContext, ConfigCore>();

/**
 * The config part of the actor `h`, in process: `route`, `pickCredential`, `reportCredential`, `recordFallback`,
 * `provider` for the calls part (keys never cross the bus). Throws when the config part was not created for `h`.
 */
export function configOf(h: HarnessContext): ConfigCore {
  const core = cores.get(h);
  if (!core) throw new Error('the harness config part is not part of this actor');
  return core;
}

/** The harness's `config` part: credentials, providers, selection, routing, fallback (SPEC part 6, rules 10-11). */
export function createConfigPart(h: HarnessContext): HarnessPart {
  let store: ConfigStore | undefined;
  const getStore = () => {
    if (!store) throw new ActorError('SERVICE_UNAVAILABLE', 'the harness config part has not started');
    return store;
  };
  const core = createConfigCore(h.infra, getStore, h.redact, h.egress);
  cores.set(h, core);

  return {
    actions: {
      addCredential: action(A.addCredential, async (p) => {
        if (needsBaseUrl(p.provider) && !p.base_url)
          throw ActorError.validation([
            {
              path: 'base_url',
              message: `provider ${p.provider} is not openai or anthropic: give the base_url of its OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1 for Ollama)`,
            },
          ]);
        // A private, loopback or link-local endpoint only when allow-listed (issue 27, finding 7; egress.ts).
        const refused = p.base_url ? await core.egress.check(p.base_url) : null;
        if (refused) throw ActorError.validation([{ path: 'base_url', message: refused }]);
        return core.pool.add(p);
      }),

      providers: action(A.providers, () => providersList(core)),

      setSelection: action(A.setSelection, (p) => core.setSelection(p)),

      routing: action(A.routing, (p) => routingView(core, p.project_id)),

      setProjectRoutes: action(A.setProjectRoutes, async ({ project_id, routes }) => {
        const parsed: Record<string, RouteRef> = {};
        for (const [role, text] of Object.entries(routes)) {
          const r = parseRoute(text);
          if ('invalid' in r) throw new ActorError('BAD_REQUEST', `route of ${role}: ${r.invalid}`, { role });
          const why = core.mismatch(r);
          if (why) throw new ActorError('BAD_REQUEST', `route of ${role}: ${why}`, { role, reason: 'model_mismatch' });
          parsed[role] = r;
        }
        await getStore().setProjectRoutes(project_id, parsed, h.infra.now());
        return { project_id, routes: parsed };
      }),

      resolveRoute: action(A.resolveRoute, async (p) => {
        const r = await core.route(p);
        return r.ok ? { outcome: 'ok' as const, route: r.route } : { outcome: 'failed' as const, failure: r.failure };
      }),

      routingHealth: action(A.routingHealth, () => routingHealth(core)),
    },

    async started() {
      store = createConfigStore(await h.infra.db());
      await core.pool.load();
    },
  };
}
