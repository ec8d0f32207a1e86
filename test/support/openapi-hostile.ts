import fc from 'fast-check';
import { HOSTILE_STRINGS, invalidOf } from './json-schema-invalid.ts';
import type { Operation } from './openapi-operations.ts';
import { asText, byPlace, OTHER_ROUTE, schemaOf, validRequest, type FuzzRequest } from './openapi-requests.ts';

/** Percent sequences that do not decode, sent as they are in a path parameter. */
const RAW_PARAMS = ['%ff', '%E0%A4%A', '%', '%zz', '%C0%AF', '%ED%A0%80'];
/** Bodies that are not JSON, sent as `application/json`. */
const BAD_JSON = [
  '{',
  '{"a":',
  '[1,]',
  "{'a':1}",
  'nul',
  '"open',
  '{"a":1}{"b":2}',
  '',
  '\u0000',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
];
/** Bodies in a media type the JSON routes do not take. */
const OTHER_MEDIA: [string, string][] = [
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=1&b=2'],
  ['application/xml', '<a>1</a>'],
  ['application/octet-stream', '\u0001\u0002'],
];
/** Query keys a parser may treat as special. */
const ODD_QUERY_KEYS = ['__proto__', 'constructor', 'a[b]', 'prototype'];

type Mutation = (r: FuzzRequest) => FuzzRequest;

function paramMutations(op: Operation): fc.Arbitrary<Mutation>[] {
  const names = byPlace(op, 'path');
  if (!names.length) return [];
  const pick = fc.constantFrom(...names);
  const hostile = fc.constantFrom(...HOSTILE_STRINGS.filter((s) => !OTHER_ROUTE.includes(s)), 'i'.repeat(600));
  const encoded = pick.chain((p) =>
    fc
      .oneof(invalidOf(schemaOf(p)).map(asText), hostile)
      .filter((v) => !OTHER_ROUTE.includes(v))
      .map((v): Mutation => (r) => ({
        ...r,
        params: { ...r.params, [p.name]: { value: v } },
        defect: `path ${p.name}`,
      })),
  );
  const raw = fc.tuple(pick, fc.constantFrom(...RAW_PARAMS)).map(([p, v]): Mutation => (r) => ({
    ...r,
    params: { ...r.params, [p.name]: { value: v, raw: true } },
    defect: `path ${p.name} not decodable`,
    malformed: true,
  }));
  return [encoded, raw];
}

function queryMutations(op: Operation): fc.Arbitrary<Mutation>[] {
  const qs = byPlace(op, 'query');
  const out: fc.Arbitrary<Mutation>[] = [
    fc
      .tuple(fc.constantFrom(...ODD_QUERY_KEYS), fc.constantFrom(...HOSTILE_STRINGS))
      .map(([k, v]): Mutation => (r) => ({ ...r, query: [...r.query, [k, { value: v }]], defect: `query key ${k}` })),
  ];
  if (!qs.length) return out;
  const pick = fc.constantFrom(...qs);
  out.push(
    // Raw escapes that do not decode (`%ED%A0%80` is a lone surrogate in UTF-8 form): the query parser decides.
    fc.tuple(pick, fc.constantFrom(...RAW_PARAMS)).map(([p, v]): Mutation => (r) => ({
      ...r,
      query: [...r.query.filter(([k]) => k !== p.name), [p.name, { value: v, raw: true }]],
      defect: `query ${p.name} not decodable`,
    })),
    pick.chain((p) =>
      fc.oneof(invalidOf(schemaOf(p)), fc.constantFrom(...HOSTILE_STRINGS)).map((v): Mutation => (r) => ({
        ...r,
        query: [...r.query.filter(([k]) => k !== p.name), [p.name, { value: asText(v) }]],
        defect: `query ${p.name}`,
      })),
    ),
    pick.map((p): Mutation => (r) => ({
      ...r,
      query: [...r.query.filter(([k]) => k !== p.name), [p.name, { value: 'a' }], [p.name, { value: 'b' }]],
      defect: `query ${p.name} twice`,
    })),
  );
  const required = qs.filter((p) => p.required);
  if (required.length)
    out.push(
      fc.constantFrom(...required).map((p): Mutation => (r) => ({
        ...r,
        query: r.query.filter(([k]) => k !== p.name),
        defect: `query ${p.name} missing`,
      })),
    );
  return out;
}

function headerMutations(op: Operation): fc.Arbitrary<Mutation>[] {
  const hs = byPlace(op, 'header');
  if (!hs.length) return [];
  return [
    fc.constantFrom(...hs).map((p): Mutation => {
      const s = schemaOf(p);
      const long = 'k'.repeat((typeof s === 'object' ? s.maxLength : undefined) ?? 4_000) + 'k';
      return (r) => ({ ...r, headers: { ...r.headers, [p.name]: long }, defect: `header ${p.name} too long` });
    }),
  ];
}

function bodyMutations(op: Operation, bodyLimit: number): fc.Arbitrary<Mutation>[] {
  if (op.method === 'GET' || op.method === 'HEAD') return [];
  const raw =
    (text: string, contentType: string | undefined, defect: string): Mutation =>
    (r) => ({ ...r, body: { kind: 'raw', text, contentType }, defect, malformed: true });
  const deep = `{"a":${'['.repeat(100)}${']'.repeat(100)}}`;
  const out: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...BAD_JSON).map((t) => raw(t, 'application/json', 'body not JSON')),
    fc.constantFrom(...OTHER_MEDIA).map(([ct, t]) => raw(t, ct, `body as ${ct}`)),
    fc.constant(raw(`{"a":"${'x'.repeat(bodyLimit)}"}`, 'application/json', 'body over the limit')),
    fc.constant((r: FuzzRequest): FuzzRequest => ({
      ...r,
      body: { kind: 'raw', text: deep, contentType: 'application/json' },
      defect: 'body nested 100 deep',
      malformed: true,
    })),
  ];
  if (op.body) {
    out.push(
      invalidOf(op.body.schema).map((v): Mutation => (r) => ({
        ...r,
        body: { kind: 'json', value: v },
        defect: 'body',
      })),
    );
    if (op.body.required)
      out.push(
        fc.constant((r: FuzzRequest): FuzzRequest => ({
          ...r,
          body: undefined,
          defect: 'body missing',
          malformed: true,
        })),
      );
  }
  return out;
}

/**
 * Requests with one defect each on top of a valid one: a hostile or malformed path parameter, query value or key, an
 * oversized header, a body that is not JSON, in another media type, over `bodyLimit`, too deep, missing, or invalid
 * under its schema (json-schema-invalid.ts).
 */
export function hostileRequest(op: Operation, bodyLimit: number): fc.Arbitrary<FuzzRequest> {
  const mutations = [
    ...paramMutations(op),
    ...queryMutations(op),
    ...headerMutations(op),
    ...bodyMutations(op, bodyLimit),
  ];
  return fc.tuple(validRequest(op), fc.oneof(...mutations)).map(([r, m]) => m(r));
}
