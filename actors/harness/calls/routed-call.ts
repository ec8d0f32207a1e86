import type { Logger } from '../../../brokers/logger.ts';
import type { FailureClass, FallbackReason } from '../../../contracts/harness.ts';
import type {
  CallAttempt,
  Completion,
  HarnessCallFailure,
  HarnessCallParams,
  HarnessCallResult,
} from '../../../contracts/harness-calls.ts';
import type { ResolvedRoute, RouteSource } from '../../../contracts/harness-config.ts';
import type { ConfigCore, RouteAsk } from '../config/index.ts';
import { resolveRoute, type RouteSources } from '../config/routing.ts';
import { callModel, type RecordCall } from './call-model.ts';

/**
 * A routed model call (`harness.call`): the role's route by rule 11 (the config part's `route`, which logs
 * llm_route_resolved), a credential pinned to the run or conversation, then `callModel`. On the provider's answer:
 * 401/403 marks the credential dead and retries once on the next healthy one; 429 rotates to the next credential
 * without marking it; a failure of the route itself (transient, capability, environment, data) falls back to the
 * next configured source (rule 10: call_failed, capability_unsupported for a capability failure). Each attempt is
 * recorded once under its own id, so nothing is charged twice. Keys are read from the pool here, in process.
 */

export interface RoutedCallDeps {
  config: ConfigCore;
  record: RecordCall;
  now(): Date;
  log: Logger;
  /** Streamed text deltas of the attempt that is running (an attempt that fails after some text is followed by the next one's). */
  onText?(delta: string): void;
}

/** Failures of the route (its provider, model or credentials) that another route may not have. */
const FALLS_BACK: ReadonlySet<FailureClass> = new Set(['transient', 'capability', 'environment', 'data']);

/** Rule 11's sources, highest first, and the fields of RouteSources each one fills. */
const LEVELS: [RouteSource, (keyof RouteSources)[]][] = [
  ['explicit', ['explicit']],
  ['phase', ['phase']],
  ['project', ['project']],
  ['file', ['file', 'fileError']],
  ['env', ['env']],
  ['selection', ['selection']],
];

type RouteOutcome =
  | { ok: true; completion: Completion; record_id: string; credential_id: string }
  | { ok: false; failure: HarnessCallFailure; record_id: string | null };

/** What rule 11 reads of a routed request. */
export function routeAskOf(p: Omit<HarnessCallParams, 'messages' | 'tools'>): RouteAsk {
  return {
    role: p.role,
    explicit: p.provider && p.model ? { provider: p.provider, model: p.model } : undefined,
    phase_model: p.phase_model,
    project_id: p.project_id ?? undefined,
    run_id: p.run_id ?? undefined,
  };
}

export async function routedCall(p: HarnessCallParams, deps: RoutedCallDeps): Promise<HarnessCallResult> {
  const cfg = deps.config;
  const ask = routeAskOf(p);
  const first = await cfg.route(ask);
  if (!first.ok) return { outcome: 'failed', record_id: null, failure: first.failure, attempts: [] };

  const attempts: CallAttempt[] = [];
  const tried: ResolvedRoute[] = [];
  let route: ResolvedRoute | null = first.route;
  let fallback: FallbackReason | null = null;
  let last: Extract<RouteOutcome, { ok: false }> | undefined;
  while (route) {
    tried.push(route);
    const out = await onRoute(route, p, deps, attempts);
    if (out.ok) {
      const served = { provider: route.provider, model: route.model, source: route.source };
      return {
        outcome: 'ok',
        record_id: out.record_id,
        completion: out.completion,
        route: { ...served, credential_id: out.credential_id, fallback },
        attempts,
      };
    }
    last = out;
    if (!FALLS_BACK.has(out.failure.class)) break;
    const next = await nextRoute(cfg, ask, tried);
    if (!next) break;
    fallback = out.failure.class === 'capability' ? 'capability_unsupported' : 'call_failed';
    cfg.recordFallback({
      role: p.role,
      primary: first.route,
      fallback: next,
      reason: fallback,
      detail: out.failure.message,
    });
    route = next;
  }
  return { outcome: 'failed', record_id: last?.record_id ?? null, failure: last!.failure, attempts };
}

/** Calls one route on its provider's credentials: one retry after a dead credential, rotation past limited ones. */
async function onRoute(
  route: ResolvedRoute,
  p: HarnessCallParams,
  deps: RoutedCallDeps,
  attempts: CallAttempt[],
): Promise<RouteOutcome> {
  const cfg = deps.config;
  const pinKey = p.run_id ?? p.conversation_id ?? undefined;
  const seen = new Set<string>();
  let authRetried = false;
  let last: Extract<RouteOutcome, { ok: false }> | undefined;
  for (;;) {
    const cred = cfg.pickCredential(route.provider, pinKey);
    if (!cred || seen.has(cred.id)) {
      if (last) return last;
      const message = `provider ${route.provider} has no healthy credential left: add one with POST /v1/harness/credentials`;
      return { ok: false, record_id: null, failure: { class: 'environment', message, retryable: false } };
    }
    seen.add(cred.id);
    if (!cred.base_url) {
      // Its key goes to its own endpoint only (issue 27, finding 1): without one it is not called, never rerouted.
      const message = `credential ${cred.id} of provider ${route.provider} names no base_url: add the credential again with the base_url of its endpoint`;
      last = { ok: false, record_id: null, failure: { class: 'environment', message, retryable: false } };
      continue;
    }
    const out = await callModel(
      {
        provider: {
          family: route.family,
          baseURL: cred.base_url,
          apiKey: cred.api_key,
          fetch: cfg.egress.fetch,
          timeoutMs: p.timeout_ms,
          idleTimeoutMs: p.idle_timeout_ms,
        },
        model: route.model,
        messages: p.messages,
        tools: p.tools,
        maxTokens: p.max_tokens,
        temperature: p.temperature,
        onText: deps.onText,
      },
      {
        provider: route.provider,
        role: p.role,
        phase: p.phase,
        run_id: p.run_id,
        project_id: p.project_id,
        credential_id: cred.id,
        principal: p.principal,
      },
      {
        record: deps.record,
        now: deps.now,
        redact: cfg.redact,
        onRecordError: (err, rec) => deps.log.warn({ err, record_id: rec.id }, 'llm call record not stored'),
      },
    );
    const { id: record_id, model, outcome, failure_class } = out.record;
    attempts.push({
      record_id,
      provider: route.provider,
      model,
      source: route.source,
      credential_id: cred.id,
      outcome,
      failure_class,
    });
    if (out.ok) {
      await cfg.reportCredential(cred.id, 'ok');
      return { ok: true, completion: out.completion, record_id, credential_id: cred.id };
    }
    const failure = out.error.failure;
    deps.log.warn(
      { provider: route.provider, model, role: p.role, credential_id: cred.id, record_id, failure },
      'llm call failed',
    );
    last = { ok: false, failure, record_id };
    if (failure.credential_dead) {
      await cfg.reportCredential(cred.id, 'auth_failed');
      if (authRetried) return last;
      authRetried = true;
    } else if (failure.rotate_credential) {
      await cfg.reportCredential(cred.id, 'rate_limited');
    } else return last;
  }
}

/**
 * The next route rule 11 would give below the sources already tried: the first one whose provider has a healthy
 * credential and that is not a provider/model already tried. An invalid lower route ends the search (it is a
 * routing configuration error the routing view reports, never used).
 */
async function nextRoute(cfg: ConfigCore, ask: RouteAsk, tried: ResolvedRoute[]): Promise<ResolvedRoute | null> {
  const { sources } = await cfg.sources(ask);
  let from = LEVELS.findIndex(([s]) => s === tried.at(-1)!.source) + 1;
  while (from > 0 && from < LEVELS.length) {
    const below: RouteSources = { ...sources };
    for (const [, keys] of LEVELS.slice(0, from)) for (const k of keys) delete below[k];
    const r = resolveRoute(ask.role, below, cfg.mismatch);
    if (!r.ok) return null;
    const route = cfg.toRoute(r);
    const again = tried.some((t) => t.provider === route.provider && t.model === route.model);
    if (route.configured && !again) return route;
    from = LEVELS.findIndex(([s]) => s === r.source) + 1;
  }
  return null;
}
