import path from 'node:path';
import { ActorError } from '../../../brokers/errors.ts';
import type { Infra } from '../../../brokers/infra.ts';
import type { FallbackEvent, ResolvedRoute, Selection } from '../../../contracts/harness-config.ts';
import type { EgressPolicy } from '../calls/egress.ts';
import type { Redactor } from '../redact.ts';
import type { ConfigStore } from './config.store.ts';
import { createCredentialPool, type CredentialOutcome, type PickedCredential } from './credentials.ts';
import { createFallbackRecorder, type FallbackInput } from './fallback.ts';
import { modelMismatch } from './model-fit.ts';
import { credentialEndpoint, providerInfo, type ProviderInfo } from './providers.ts';
import { createRoutesFileReader } from './routes-file.ts';
import { resolveRoute, type Resolution, type RouteRef, type RouteSources } from './routing.ts';

/** What a caller knows of a call when it asks for a route (rule 11's first three sources). */
export interface RouteAsk {
  role: string;
  explicit?: RouteRef;
  phase_model?: RouteRef;
  project_id?: string;
  run_id?: string;
}

/** A route for a call, or the `environment` failure that names what to configure (never thrown at the calls part). */
export type RouteOutcome =
  | { ok: true; route: ResolvedRoute }
  | { ok: false; failure: { class: 'environment'; message: string; retryable: false } };

/** The default credentials file: SERVICE_CREDENTIALS_PATH, else <data dir>/credentials.json; memory:// keeps none. */
export function credentialsPath(config: Infra['config']): string | null {
  if (config.SERVICE_CREDENTIALS_PATH) return path.resolve(config.SERVICE_CREDENTIALS_PATH);
  return config.dataDir.startsWith('memory://') ? null : path.join(config.dataDir, 'credentials.json');
}

/**
 * The config part's state and rules, shared by its bus actions and, in process, by the calls part: the credential
 * pool, the routing sources (selection and project routes in the database, the routes file, the SERVICE_ROUTE_*
 * variables) and the fallback recorder.
 */
export function createConfigCore(infra: Infra, store: () => ConfigStore, redact: Redactor, egress: EgressPolicy) {
  const now = () => infra.now();
  const pool = createCredentialPool({
    file: credentialsPath(infra.config),
    log: infra.log,
    now,
    onKey: (key) => redact.add(key),
  });
  const fallbacks = createFallbackRecorder({
    log: infra.log,
    metrics: infra.metrics,
    now,
    maxLabelValues: infra.config.SERVICE_HARNESS_MAX_LABEL_VALUES,
  });
  const routesFile = createRoutesFileReader(infra.config.SERVICE_MODEL_ROUTES_PATH);

  const provider = (id: string): ProviderInfo => providerInfo(id, pool.providers().get(id)?.base_url ?? null);
  const mismatch = (ref: RouteRef): string | null => modelMismatch(provider(ref.provider), ref.model);
  const configured = (id: string): boolean => pool.providers().get(id)?.healthy ?? false;

  async function sources(ask: Omit<RouteAsk, 'role'>): Promise<{ sources: RouteSources; fileProblems: string[] }> {
    const s = store();
    const [selection, project, file] = await Promise.all([
      s.selection(),
      ask.project_id ? s.projectRoutes(ask.project_id) : Promise.resolve(undefined),
      routesFile.read(),
    ]);
    return {
      sources: {
        explicit: ask.explicit,
        phase: ask.phase_model,
        project,
        file: file?.routes,
        fileError: file?.error,
        env: infra.config.routeVars ?? {},
        selection: selection && { provider: selection.provider, model: selection.model },
      },
      fileProblems: file?.problems ?? [],
    };
  }

  function toRoute(r: Extract<Resolution, { ok: true }>): ResolvedRoute {
    const p = provider(r.provider);
    return {
      role: r.role,
      provider: r.provider,
      model: r.model,
      source: r.source,
      family: p.family,
      base_url: p.base_url,
      configured: configured(r.provider),
    };
  }

  return {
    pool,
    redact,
    egress,
    fallbacks,
    provider,
    mismatch,
    configured,
    sources,
    toRoute,

    /** Resolves a call's route (logs llm_route_resolved; a passed-over mismatching primary is a model_mismatch fallback). */
    async route(ask: RouteAsk): Promise<RouteOutcome> {
      const { sources: src } = await sources(ask);
      const r = resolveRoute(ask.role, src, mismatch);
      if (!r.ok) return { ok: false, failure: { class: 'environment', message: r.message, retryable: false } };
      const primary = r.passed_over[0];
      if (primary)
        fallbacks.record({ role: r.role, primary, fallback: r, reason: 'model_mismatch', detail: primary.detail });
      const route = toRoute(r);
      infra.log.info(
        {
          event: 'llm_route_resolved',
          role: r.role,
          provider: r.provider,
          model: r.model,
          source: r.source,
          project_id: ask.project_id ?? null,
          run_id: ask.run_id ?? null,
        },
        `role ${r.role} routed to ${r.provider}:${r.model} (${r.source})`,
      );
      if (!route.configured)
        return {
          ok: false,
          failure: {
            class: 'environment',
            message: `role ${r.role} routes to provider ${r.provider}, which has no healthy credential: add one with POST /v1/harness/credentials {"provider": "${r.provider}", "api_key": ...}${route.family === 'openai_compatible' && !route.base_url ? ', "base_url"' : ''}`,
            retryable: false,
          },
        };
      return { ok: true, route };
    },

    /** A healthy credential with the endpoint its key goes to: its own base URL or the first-party one, no other. */
    pickCredential(providerId: string, pinKey?: string): PickedCredential | null {
      const c = pool.pickCredential(providerId, pinKey);
      return c && { ...c, base_url: credentialEndpoint(c.provider, c.base_url) };
    },
    reportCredential: (id: string, outcome: CredentialOutcome) => pool.reportCredential(id, outcome),
    recordFallback: (f: FallbackInput): FallbackEvent => fallbacks.record(f),

    /** Stores the selection after judging it (400 when the model does not fit the provider's family). */
    async setSelection(ref: RouteRef): Promise<Selection> {
      const why = mismatch(ref);
      if (why) throw new ActorError('BAD_REQUEST', why, { reason: 'model_mismatch', provider: ref.provider });
      return store().setSelection(ref, now());
    },
  };
}
export type ConfigCore = ReturnType<typeof createConfigCore>;
