import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ErrorBodySchema, ErrorCatalogue } from '../../contracts/errors.ts';
import { typesOf, type JsonSchema } from './json-schema-arbitrary.ts';
import { declaredResponse, type Operation } from './openapi-operations.ts';
import { urlOf, type FuzzRequest } from './openapi-requests.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Statuses any documented route may answer though its document entry declares only its successes, each in the one
 * error body (README "Decisions where the spec is silent": error body, bad input). Not here: 401/403 (no credential
 * or foreign Host is configured in the fuzz node), 408/431 (connection limits no generated request reaches), 409
 * (a state conflict is a route's own answer: it declares it), 429 (the spec shows no rate limits; the gateway has
 * none), 504 (an actor out of time is a defect on a test node), and 500 (never).
 */
export const GENERIC_STATUSES: Readonly<Record<number, string>> = {
  400: 'INVALID_JSON: a body that is not JSON; BAD_REQUEST: a URL whose percent escapes do not decode',
  404: 'NOT_FOUND: an unknown route, or an id in the path, query or body that names nothing',
  413: 'PAYLOAD_TOO_LARGE: a body over SERVICE_BODY_LIMIT_BYTES',
  415: 'UNSUPPORTED_MEDIA_TYPE: a body in a media type the route does not parse',
  422: 'VALIDATION_FAILED: a field missing, of the wrong type or out of range, or NUL/control/too-deep input',
  503: 'SERVICE_UNAVAILABLE: the actor behind the route is not reachable, or lacks a configured dependency',
};

/** One answer of the gateway, read whole (an event stream is cut at its head). */
export type Answer = { status: number; contentType: string; text: string };

/** Sends `req` to the gateway at `base` (a real port: the surface clients use). */
export async function send(base: string, op: Operation, req: FuzzRequest): Promise<Answer> {
  const headers: Record<string, string> = { ...req.headers };
  let body: string | undefined;
  if (req.body?.kind === 'json') {
    body = JSON.stringify(req.body.value);
    headers['content-type'] = 'application/json';
  } else if (req.body?.kind === 'raw') {
    body = req.body.text;
    if (req.body.contentType) headers['content-type'] = req.body.contentType;
  }
  const abort = new AbortController();
  const res = await fetch(base + urlOf(op, req), { method: op.method, headers, body, signal: abort.signal });
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    abort.abort();
    return { status: res.status, contentType, text: '' };
  }
  return { status: res.status, contentType, text: await res.text() };
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** A one-line account of a request and its answer, long values clipped, for a failure report. */
export function describeExchange(op: Operation, req: FuzzRequest, ans: Answer): string {
  const body = req.body?.kind === 'json' ? JSON.stringify(req.body.value) : req.body?.text;
  const head = Object.keys(req.headers).length ? ` headers ${clip(JSON.stringify(req.headers), 120)}` : '';
  return `[${req.defect}] ${op.method} ${clip(urlOf(op, req))}${head}${body === undefined ? '' : ` body ${clip(body)}`} -> ${ans.status} ${clip(ans.text, 500)}`;
}

/** Checks answers against the document: statuses, error bodies, success bodies, and refusals of invalid input. */
export class ContractChecks {
  private readonly strict = addFormats(new Ajv2020({ strict: false, allErrors: false, validateFormats: true }));
  private readonly coercing = addFormats(new Ajv2020({ strict: false, coerceTypes: 'array', validateFormats: true }));
  private readonly compiled = new Map<string, ValidateFunction>();

  private validator(ajv: Ajv2020, tag: string, schema: JsonSchema): ValidateFunction {
    const key = `${tag}:${JSON.stringify(schema)}`;
    let v = this.compiled.get(key);
    if (!v) this.compiled.set(key, (v = ajv.compile(typeof schema === 'boolean' ? {} : schema)));
    return v;
  }

  /** Whether the document admits the request: path and query coerced from text as the routes do, the body as JSON. */
  admits(op: Operation, req: FuzzRequest): boolean {
    if (req.malformed) return false;
    for (const p of op.parameters) {
      const sent =
        p.in === 'path'
          ? req.params[p.name]?.value
          : p.in === 'query'
            ? req.query.filter(([k]) => k === p.name).map(([, v]) => v.value)
            : req.headers[p.name];
      const value = Array.isArray(sent) ? (sent.length > 1 ? sent : sent[0]) : sent;
      if (value === undefined) {
        if (p.required) return false;
        continue;
      }
      // The routes read numbers with zod's coerce, which takes an empty value for 0 (then range-checks it); Ajv's
      // coercion refuses it. The document cannot say either: read it as the routes do.
      const numeric = typeof p.schema === 'object' && typesOf(p.schema).some((t) => t === 'number' || t === 'integer');
      const coerced = numeric && value === '' ? '0' : value;
      if (!this.validator(this.coercing, 'param', p.schema ?? true)(coerced)) return false;
    }
    if (!op.body) return true;
    if (req.body === undefined) return !op.body.required;
    return req.body.kind === 'json' && this.validator(this.strict, 'body', op.body.schema)(req.body.value) === true;
  }

  /** What is wrong with `ans` as the answer to `req` (empty: nothing). */
  problems(op: Operation, req: FuzzRequest, ans: Answer): string[] {
    const out: string[] = [];
    const declared = declaredResponse(op, ans.status);
    if (ans.status >= 500 && ans.status !== 503) out.push(`answered ${ans.status}`);
    else if (!declared && !(ans.status in GENERIC_STATUSES)) out.push(`status ${ans.status} is not declared`);
    if (ans.status >= 200 && ans.status < 300 && !this.admits(op, req)) out.push('an invalid request was accepted');
    const json = ans.contentType.startsWith('application/json');
    let parsed: unknown;
    if (json && ans.text !== '') {
      try {
        parsed = JSON.parse(ans.text);
      } catch {
        out.push('the body is not the JSON its content type says');
        return out;
      }
    }
    if (ans.status >= 400) {
      const err = ErrorBodySchema.safeParse(parsed);
      if (!err.success)
        out.push(`the error body is not {error: {code, message, details?}}: ${err.error.issues[0]?.message}`);
      else if (ErrorCatalogue[err.data.error.code].http !== ans.status)
        out.push(
          `error code ${err.data.error.code} is HTTP ${ErrorCatalogue[err.data.error.code].http}, not ${ans.status}`,
        );
    }
    const schema = declared?.content?.['application/json']?.schema;
    if (schema !== undefined) {
      if (!json) out.push(`declared JSON, answered ${ans.contentType || 'no content type'}`);
      else {
        const v = this.validator(this.strict, 'response', schema);
        if (!v(parsed)) out.push(`the body does not match the declared schema: ${this.strict.errorsText(v.errors)}`);
      }
    }
    return out;
  }
}
