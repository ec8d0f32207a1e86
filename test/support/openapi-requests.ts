import fc from 'fast-check';
import { validOf, type JsonSchema } from './json-schema-arbitrary.ts';
import type { IdPool } from './openapi-id-pool.ts';
import type { OpenApiParameter, Operation } from './openapi-operations.ts';

/** A request body: a JSON value (sent as `application/json`), or raw text in a given media type (or none). */
export type FuzzBody =
  | { kind: 'json'; value: unknown; pool?: Partial<Record<string, number>> }
  | { kind: 'raw'; text: string; contentType?: string };

/**
 * A path or query value: `raw` goes into the URL as it is (a broken percent escape), any other encoded; `pool` asks
 * for the id at that index of the run's id pool instead of `value`, when the pool has one (see `resolve`).
 */
export type Slot = { value: string; raw?: boolean; pool?: number };

/** One generated HTTP request for an operation: plain data, so fast-check prints and shrinks it. */
export type FuzzRequest = {
  params: Record<string, Slot>;
  query: [string, Slot][];
  headers: Record<string, string>;
  body?: FuzzBody;
  /** What the request breaks on purpose (`valid` for one generated from the schemas). */
  defect: string;
  /** True when the request is malformed whatever the schemas say (bad JSON, wrong media type, an undecodable URL). */
  malformed: boolean;
};

/** Characters kept as they are in a URL component (RFC 3986 unreserved); every other byte is percent-encoded. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodes the UTF-8 bytes of `s` (a lone surrogate as U+FFFD, where `encodeURIComponent` would throw). */
export function pct(s: string): string {
  return Array.from(Buffer.from(s, 'utf8'), (b) =>
    UNRESERVED.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
}

/** The request's URL path and query, relative to the gateway's base URL. */
export function urlOf(op: Operation, req: FuzzRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = req.params[name];
    return p === undefined ? '' : p.raw ? p.value : pct(p.value);
  });
  const qs = req.query.map(([k, v]) => `${pct(k)}=${v.raw ? v.value : pct(v.value)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

/** How a generated value travels in a URL or a header: strings as they are, anything else as JSON. */
export const asText = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
/** A parameter's schema; one the document leaves out admits anything. */
export const schemaOf = (p: OpenApiParameter): JsonSchema => p.schema ?? true;
/** The operation's parameters in one place (path, query or header). */
export const byPlace = (op: Operation, place: OpenApiParameter['in']) => op.parameters.filter((p) => p.in === place);
/** Header values stay printable ASCII: anything else is refused by the HTTP client before it is sent. */
const headerValue = (s: JsonSchema) =>
  fc
    .stringMatching(/^[A-Za-z0-9._~-]+$/, { size: 'xsmall' })
    .filter((v) => typeof s !== 'object' || v.length <= (s.maxLength ?? 200));

function optional<T>(arb: fc.Arbitrary<T>, required: boolean | undefined): fc.Arbitrary<T | undefined> {
  return required ? arb : fc.option(arb, { nil: undefined });
}

/** Path values that address another route: an empty segment, and the dot segments URL parsers resolve. */
export const OTHER_ROUTE = ['', '.', '..'];

/** A parameter's value from its schema; one in three asks for a pooled id instead (the generated one stands in). */
function slotOf(p: OpenApiParameter): fc.Arbitrary<Slot> {
  const generated = validOf(schemaOf(p))
    .map(asText)
    .filter((v) => p.in !== 'path' || !OTHER_ROUTE.includes(v));
  return fc.oneof(
    { weight: 2, arbitrary: generated.map((value) => ({ value })) },
    { weight: 1, arbitrary: fc.tuple(generated, fc.nat(63)).map(([value, pool]) => ({ value, pool })) },
  );
}

/** `req` with each pooled slot given the pool's id (kept as generated while the pool has none). */
export function resolve(op: Operation, req: FuzzRequest, ids: IdPool): FuzzRequest {
  const fill = (name: string, s: Slot): Slot =>
    s.pool === undefined ? s : { value: ids.pick(op, name, s.pool) ?? s.value };
  let body = req.body;
  if (body?.kind === 'json' && body.pool && isObject(body.value)) {
    const value = { ...body.value };
    for (const [k, i] of Object.entries(body.pool))
      if (i !== undefined && k in value) value[k] = ids.pick(op, snake(k), i) ?? value[k];
    body = { kind: 'json', value };
  }
  return {
    ...req,
    params: Object.fromEntries(Object.entries(req.params).map(([k, s]) => [k, fill(k, s)])),
    query: req.query.map(([k, s]) => [k, fill(k, s)]),
    body,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `projectId` → `project_id`: body fields name ids in either case; the pool knows them by the snake name. */
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** For the top-level id fields of an object body (`*_id`, `*Id`), which pooled id each one asks for (if any). */
function bodyPool(schema: JsonSchema): fc.Arbitrary<Partial<Record<string, number>>> {
  const props = typeof schema === 'object' ? Object.keys(schema.properties ?? {}) : [];
  const idFields = props.filter((k) => /(_id|[a-z]Id)$/.test(k));
  return fc.record(Object.fromEntries(idFields.map((k) => [k, fc.nat(63)])), { requiredKeys: [] });
}

/** Requests built from the operation's declared path parameters, query, headers and body schema. */
export function validRequest(op: Operation): fc.Arbitrary<FuzzRequest> {
  const params = fc.record(Object.fromEntries(byPlace(op, 'path').map((p) => [p.name, slotOf(p)])));
  const query = fc.tuple(
    ...byPlace(op, 'query').map((p) =>
      optional(slotOf(p), p.required).map((v) => (v === undefined ? [] : [[p.name, v] as [string, Slot]])),
    ),
  );
  const headers = fc.tuple(
    ...byPlace(op, 'header').map((p) =>
      optional(headerValue(schemaOf(p)), p.required).map((v) => (v === undefined ? [] : [[p.name, v]])),
    ),
  );
  const body: fc.Arbitrary<FuzzBody | undefined> = op.body
    ? optional(fc.tuple(validOf(op.body.schema), bodyPool(op.body.schema)), op.body.required).map((v) =>
        v === undefined ? undefined : { kind: 'json', value: v[0], pool: v[1] },
      )
    : fc.constant(undefined);
  return fc.record({ params, query, headers, body }).map((r) => ({
    params: r.params,
    query: r.query.flat(),
    headers: Object.fromEntries(r.headers.flat()),
    body: r.body,
    defect: 'valid',
    malformed: false,
  }));
}
