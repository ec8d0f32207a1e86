import {
  baseRoleOf,
  HARNESS_BASE_ROLES,
  HarnessRoleSchema,
  ProviderIdSchema,
  routeVarName,
  splitRoute,
} from '../../../contracts/harness.ts';
import type { RouteSource } from '../../../contracts/harness-config.ts';

/**
 * Model routing (SPEC rule 11), as a pure function of its sources. Precedence, highest first: the explicit per-call
 * provider/model, the running phase's own model, the project's routes, the table (the SERVICE_MODEL_ROUTES_PATH file,
 * then the SERVICE_ROUTE_<ROLE> variables), then the durable selection. Within one source a `phase_brain:<discipline>`
 * route beats the plain `phase_brain` one. A malformed route is a routing configuration error and stops the
 * resolution there (never skipped); a well-formed route whose model its provider cannot serve (rule 10) is passed
 * over for the next source, and the caller reports that as a `model_mismatch` fallback.
 */

export interface RouteRef {
  provider: string;
  model: string;
}
/** A route as a source holds it: parsed, or what was written and why it is invalid. */
export type RouteEntry = RouteRef | { invalid: string };

export interface RouteSources {
  explicit?: RouteEntry;
  phase?: RouteEntry;
  /** The project's routes, role -> route. */
  project?: Record<string, RouteEntry>;
  /** The routes file, role -> route; `fileError` when the file itself cannot be used. */
  file?: Record<string, RouteEntry>;
  fileError?: string;
  /** The raw SERVICE_ROUTE_* variables, by name. */
  env?: Record<string, string>;
  /** The durable selection (a mismatching one is passed over, as the spec's "ignored on read"). */
  selection?: RouteRef | null;
}

export interface PassedOver extends RouteRef {
  source: RouteSource;
  reason: 'model_mismatch';
  detail: string;
}

export type Resolution =
  | { ok: true; role: string; provider: string; model: string; source: RouteSource; passed_over: PassedOver[] }
  | {
      ok: false;
      role: string;
      kind: 'invalid' | 'unrouted';
      source: RouteSource | null;
      message: string;
      passed_over: PassedOver[];
    };

/** Judges a provider/model pair: null when it fits, else why not. */
export type FitJudge = (ref: RouteRef) => string | null;

export { routeVarName };

/** Parses `provider:model` (the model may itself hold colons, as in `llama3.1:8b`). */
export function parseRoute(text: unknown): RouteEntry {
  if (typeof text === 'object' && text !== null && !Array.isArray(text)) {
    const o = text as Record<string, unknown>;
    return parseRoute(typeof o.provider === 'string' && typeof o.model === 'string' ? `${o.provider}:${o.model}` : '');
  }
  if (typeof text !== 'string') return { invalid: `a route is "<provider>:<model>", not ${JSON.stringify(text)}` };
  const split = splitRoute(text);
  if (!split) return { invalid: `a route is "<provider>:<model>", not ${JSON.stringify(text)}` };
  const { provider, model } = split;
  if (!ProviderIdSchema.safeParse(provider).success)
    return { invalid: `provider ${JSON.stringify(provider)} is not a provider id (lower case letters, digits, _ . -)` };
  if (model.length > 200) return { invalid: `model name over 200 characters in ${JSON.stringify(provider)}` };
  return { provider, model };
}

function lookup(role: string, table: Record<string, RouteEntry> | undefined): RouteEntry | undefined {
  if (!table) return undefined;
  const base = baseRoleOf(role);
  return Object.hasOwn(table, role) ? table[role] : base && Object.hasOwn(table, base) ? table[base] : undefined;
}

function envLookup(role: string, env: Record<string, string> | undefined): RouteEntry | undefined {
  if (!env) return undefined;
  const base = baseRoleOf(role);
  const value = env[routeVarName(role)] ?? (base ? env[routeVarName(base)] : undefined);
  return value === undefined ? undefined : parseRoute(value);
}

/** Resolves one role's route from its sources (see the file comment). Never throws. */
export function resolveRoute(role: string, sources: RouteSources, judge: FitJudge = () => null): Resolution {
  const passed_over: PassedOver[] = [];
  if (!HarnessRoleSchema.safeParse(role).success)
    return { ok: false, role, kind: 'invalid', source: null, message: `unknown role ${role}`, passed_over };
  const levels: [RouteSource, () => RouteEntry | null | undefined][] = [
    ['explicit', () => sources.explicit],
    ['phase', () => sources.phase],
    ['project', () => lookup(role, sources.project)],
    ['file', () => (sources.fileError ? { invalid: sources.fileError } : lookup(role, sources.file))],
    ['env', () => envLookup(role, sources.env)],
    ['selection', () => sources.selection],
  ];
  for (const [source, get] of levels) {
    const entry = get();
    if (!entry) continue;
    if ('invalid' in entry) {
      const where = source === 'env' ? ` (${routeVarName(role)})` : '';
      const message = `routing configuration error: the ${source} route of ${role}${where} is invalid: ${entry.invalid}`;
      return { ok: false, role, kind: 'invalid', source, message, passed_over };
    }
    const mismatch = judge(entry);
    if (mismatch) {
      passed_over.push({ ...entry, source, reason: 'model_mismatch', detail: mismatch });
      continue;
    }
    return { ok: true, role, provider: entry.provider, model: entry.model, source, passed_over };
  }
  return {
    ok: false,
    role,
    kind: 'unrouted',
    source: null,
    message: `no model for role ${role}: choose one with PUT /v1/harness/selection, or route the role with ${routeVarName(role)}=<provider>:<model> or SERVICE_MODEL_ROUTES_PATH`,
    passed_over,
  };
}

/** The roles a routing view lists: the base roles plus every `phase_brain:<discipline>` some source names. */
export function rolesNamed(sources: RouteSources): string[] {
  const named = new Set<string>(HARNESS_BASE_ROLES);
  for (const t of [sources.project, sources.file]) for (const k of Object.keys(t ?? {})) named.add(k);
  for (const name of Object.keys(sources.env ?? {})) {
    const m = /^SERVICE_ROUTE_PHASE_BRAIN_(.+)$/.exec(name);
    if (m) named.add(`phase_brain:${m[1].toLowerCase()}`);
  }
  return [...named].filter((r) => HarnessRoleSchema.safeParse(r).success);
}

/** SERVICE_ROUTE_* variables that route no role: each a problem (an invalid route is never dropped quietly). */
export function strayRouteVars(env: Record<string, string> | undefined): string[] {
  const base = new Set<string>(HARNESS_BASE_ROLES.map(routeVarName));
  return Object.keys(env ?? {}).filter((name) => {
    if (base.has(name)) return false;
    const m = /^SERVICE_ROUTE_PHASE_BRAIN_(.+)$/.exec(name);
    return !(m && HarnessRoleSchema.safeParse(`phase_brain:${m[1].toLowerCase()}`).success);
  });
}
