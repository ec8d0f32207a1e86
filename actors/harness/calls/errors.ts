import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { FailureClass } from '../../../contracts/harness.ts';
import type { HarnessCallFailure } from '../../../contracts/harness-calls.ts';
import { EPRIVATE } from './egress.ts';

/**
 * The one error a model call throws out of the `calls` part: classified, never a raw SDK error (issue 15, "Bad input
 * and faults"). `retryable` means the same request may succeed later; the harness (not the SDK, whose retries are
 * off) decides whether to retry, rotate the credential or fall back.
 */
export class HarnessCallError extends Error {
  override name = 'HarnessCallError';
  readonly failure: HarnessCallFailure;

  constructor(failure: HarnessCallFailure) {
    super(failure.message);
    this.failure = failure;
  }

  get class(): FailureClass {
    return this.failure.class;
  }
  get retryable(): boolean {
    return this.failure.retryable;
  }

  static of(cls: FailureClass, message: string, extra: Partial<HarnessCallFailure> = {}): HarnessCallError {
    return new HarnessCallError({ class: cls, message, retryable: cls === 'transient', ...extra });
  }
}

type ApiError = InstanceType<typeof OpenAI.APIError> | InstanceType<typeof Anthropic.APIError>;

const isApiError = (e: unknown): e is ApiError => e instanceof OpenAI.APIError || e instanceof Anthropic.APIError;
const isTimeout = (e: unknown) =>
  e instanceof OpenAI.APIConnectionTimeoutError || e instanceof Anthropic.APIConnectionTimeoutError;
const isConnection = (e: unknown) =>
  e instanceof OpenAI.APIConnectionError || e instanceof Anthropic.APIConnectionError;
const isUserAbort = (e: unknown) => e instanceof OpenAI.APIUserAbortError || e instanceof Anthropic.APIUserAbortError;

/** Error codes and types in a 400/404 body that say the model (or a feature of it) is not served. */
const CAPABILITY_HINT = /model|not[ _]?(found|supported)|unsupported|context_length|too long|tools? (is|are) not/i;
/** Error types a provider sends inside a stream for a passing overload (Anthropic `overloaded_error`, OpenAI `server_error`). */
const TRANSIENT_TYPES = new Set(['overloaded_error', 'api_error', 'server_error', 'rate_limit_error', 'timeout_error']);

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) as milliseconds. */
function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Math.round(Number(ms)));
  const ra = headers?.get('retry-after');
  if (!ra) return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Math.round(Number(ra) * 1000));
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The provider's own code/type/message words, for matching (never the headers: they may echo a key). */
function bodyWords(e: ApiError): string {
  const body = (e.error ?? {}) as { error?: { type?: unknown; code?: unknown; message?: unknown } };
  const inner = body.error ?? (body as { type?: unknown; code?: unknown; message?: unknown });
  return [inner.type, inner.code, inner.message, (e as { code?: unknown }).code, e.type].filter(Boolean).join(' ');
}

/** Longest provider error message repeated in a failure. */
const MAX_PROVIDER_MESSAGE = 300;

/**
 * The provider's own error message (`{error: {message}}` or `{message}`), shortened; null when the body is not a
 * provider error. Only that is repeated: whatever else answered (an intranet page, a proxy's HTML) is never
 * reflected into results, the chat stream or logs (issue 27, finding 7).
 */
function providerMessage(e: ApiError): string | null {
  const body = e.error as { error?: { message?: unknown }; message?: unknown } | string | undefined;
  if (!body || typeof body !== 'object') return null;
  const m = typeof body.error === 'object' && body.error ? body.error.message : body.message;
  if (typeof m !== 'string' || !m.trim()) return null;
  return m.length > MAX_PROVIDER_MESSAGE ? `${m.slice(0, MAX_PROVIDER_MESSAGE)}...` : m;
}

/** The egress refusal somewhere in an error's causes (egress.ts), if any. */
function egressRefusal(e: unknown): string | null {
  let c: unknown = e;
  for (let i = 0; i < 5 && c && typeof c === 'object'; i++) {
    if ((c as { code?: unknown }).code === EPRIVATE) return String((c as Error).message);
    c = (c as { cause?: unknown }).cause;
  }
  return null;
}

function classifyStatus(e: ApiError, status: number): HarnessCallFailure {
  const words = bodyWords(e);
  const said = providerMessage(e);
  const message = `provider answered ${status}${said ? `: ${said}` : ' (its body is not shown: not a provider error)'}`;
  if (status === 401 || status === 403) {
    // The credential is refused: switching to another one may help, retrying this one never will.
    return { class: 'environment', status, message, retryable: false, credential_dead: true };
  }
  if (status === 429) {
    const retry_after_ms = retryAfterMs(e.headers, Date.now());
    // OpenAI's insufficient_quota is a 429 that no wait cures: the account is out of credit.
    if (/insufficient_quota|billing/i.test(words)) {
      return { class: 'environment', status, message, retryable: false, rotate_credential: true };
    }
    return { class: 'transient', status, message, retryable: true, rotate_credential: true, retry_after_ms };
  }
  if (status === 408 || status === 409 || status >= 500)
    return { class: 'transient', status, message, retryable: true };
  if (status === 404 || status === 413 || ((status === 400 || status === 422) && CAPABILITY_HINT.test(words))) {
    return { class: 'capability', status, message, retryable: false };
  }
  return { class: 'unknown', status, message, retryable: false };
}

/** Network-level failures the fetch stack reports as TypeError/Error with a cause (reset, refused, cut mid-body). */
function isNetworkFault(e: unknown): boolean {
  const err = e as { message?: unknown; code?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  const text = `${String(err?.message ?? '')} ${String(err?.code ?? '')} ${String(err?.cause?.code ?? '')}`;
  return /terminated|ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET|other side closed|socket hang up/i.test(text);
}

/**
 * Classifies anything a model call threw: SDK errors of either family, network faults, our own stream checks.
 * Kept family-neutral: both SDKs share the shape of their error classes.
 */
export function classifyError(e: unknown): HarnessCallError {
  if (e instanceof HarnessCallError) return e;
  if (isTimeout(e)) return HarnessCallError.of('transient', 'the provider did not answer in time');
  const refused = egressRefusal(e);
  if (refused) return HarnessCallError.of('environment', `not sent: ${refused}`);
  if (isUserAbort(e)) return HarnessCallError.of('unknown', 'the call was cancelled by its caller');
  if (isConnection(e)) {
    return HarnessCallError.of('transient', `could not reach the provider: ${(e as Error).message}`);
  }
  if (isApiError(e)) {
    if (typeof e.status === 'number') return new HarnessCallError(classifyStatus(e, e.status));
    // An error event inside a stream (no HTTP status): its type says whether it passes.
    const words = bodyWords(e);
    const transient = [...TRANSIENT_TYPES].some((t) => words.includes(t));
    return HarnessCallError.of(
      transient ? 'transient' : 'unknown',
      `provider reported an error in the stream: ${e.message}`,
    );
  }
  if (e instanceof SyntaxError) {
    // JSON.parse quotes the start of what it read: not repeated (whatever answered is never reflected).
    return HarnessCallError.of('data', 'the provider sent a malformed stream chunk (not JSON)');
  }
  if (isNetworkFault(e)) {
    return HarnessCallError.of('transient', `the connection to the provider broke: ${(e as Error).message}`);
  }
  const message = e instanceof Error ? e.message : String(e);
  return HarnessCallError.of('unknown', `model call failed: ${message}`);
}
