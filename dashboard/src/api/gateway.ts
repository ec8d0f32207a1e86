/**
 * The gateway the dashboard talks to. Its address is kept in local storage (SPEC dashboard rule 8); empty means the
 * gateway that served the page (same origin). Every request goes through `api`, which turns the gateway's error body
 * `{error: {code, message, details}}` into an `ApiError` whose message is shown in words. When a person is signed in
 * (decision 0120) every request carries their access token as `Authorization: Bearer`; a token the gateway refuses as
 * invalid (expired, revoked keys) signs them out, so the shell offers Sign in again.
 */
import type { ErrorBody } from '../../../contracts/errors.ts';
import { bearerHeaders, signOut } from '../auth/session.ts';

const ADDRESS_KEY = 'service.gateway';

export function gatewayAddress(): string {
  try {
    return localStorage.getItem(ADDRESS_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Saves the address ('' = this origin). The caller clears the query cache (App's settings page does). */
export function setGatewayAddress(address: string): void {
  const trimmed = address.trim().replace(/\/+$/, '');
  if (trimmed) localStorage.setItem(ADDRESS_KEY, trimmed);
  else localStorage.removeItem(ADDRESS_KEY);
}

/** A refused or failed request: the HTTP status, the spec's error code and the gateway's message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Absolute URL of a gateway path (`/v1/...`), for links and downloads. */
export const gatewayUrl = (path: string) => `${gatewayAddress()}${path}`;

/** Query string from defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    if (body.error?.code) return new ApiError(res.status, body.error.code, body.error.message, body.error.details);
  } catch {
    // not the gateway's error body: fall through
  }
  return new ApiError(res.status, `HTTP_${res.status}`, text.slice(0, 300) || res.statusText || 'request failed');
}

/** One request to the gateway: JSON in, JSON out; a response with headers when `withHeaders` is set. */
export async function request(path: string, opts: ApiOptions = {}): Promise<Response> {
  const bearer = bearerHeaders();
  const headers: Record<string, string> = { accept: 'application/json', ...bearer, ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(gatewayUrl(path), { method: opts.method ?? 'GET', headers, body, signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'UNREACHABLE', `the gateway at ${gatewayAddress() || location.origin} cannot be reached`);
  }
  if (!res.ok) {
    const err = await errorOf(res);
    if (bearer.authorization && err.status === 401 && err.details?.reason === 'invalid_token') signOut();
    throw err;
  }
  return res;
}

export async function api<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  const res = await request(path, opts);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Approvals requests carry the surface header (SPEC dashboard rule 3: every approvals request from the dashboard). */
export const SURFACE_HEADERS = { 'X-Service-Surface': 'dashboard' } as const;

export function approvalsApi<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  return api<T>(path, { ...opts, headers: { ...SURFACE_HEADERS, ...opts.headers } });
}

/** The error in words for a person: the gateway's message, with what the status means when it adds something. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const what: Record<number, string> = {
      401: 'This gateway needs you signed in (Sign in, top right).',
      409: 'Conflict: the item changed or was already decided.',
      412: 'The item moved on since it was shown: reload it and decide again.',
      422: 'The request was refused as invalid.',
      428: 'The gateway needs the item version (If-Match) to decide.',
      503: 'A service behind the gateway is unavailable.',
    };
    return [what[err.status], `${err.message} (${err.code})`].filter(Boolean).join(' ');
  }
  return err instanceof Error ? err.message : String(err);
}
