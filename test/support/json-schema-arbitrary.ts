import fc from 'fast-check';

/** A JSON Schema type name (draft 2020-12). */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

/**
 * The subset of JSON Schema 2020-12 that `z.toJSONSchema` emits for the gateway's inputs (and the OpenAPI document
 * carries): enough to generate values, not a full model of the draft. Unknown keywords are ignored.
 */
export type JsonSchema =
  | boolean
  | {
      type?: JsonType | JsonType[];
      enum?: unknown[];
      const?: unknown;
      default?: unknown;
      anyOf?: JsonSchema[];
      oneOf?: JsonSchema[];
      allOf?: JsonSchema[];
      properties?: Record<string, JsonSchema>;
      required?: string[];
      additionalProperties?: JsonSchema;
      propertyNames?: JsonSchema;
      items?: JsonSchema;
      prefixItems?: JsonSchema[];
      minItems?: number;
      maxItems?: number;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: string;
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
    };
/** A JSON Schema object (not `true`/`false`). */
export type SchemaObject = Exclude<JsonSchema, boolean>;

/** Nesting past this depth generates only what a schema requires (keeps values small and generation finite). */
const MAX_DEPTH = 6;
/** Strings and collections stay this much over their minimum: the fuzz is about shapes, not volume. */
const SPAN = 24;

/** A small JSON value of any type: what an unconstrained schema (`{}`, `true`) accepts. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });

/** The JSON type names a schema admits (every type when it names none). */
export function typesOf(s: SchemaObject): JsonType[] {
  if (s.type) return [s.type].flat();
  if (s.properties || s.additionalProperties !== undefined) return ['object'];
  if (s.items || s.prefixItems) return ['array'];
  return [];
}

const within = (s: SchemaObject) => (v: string) =>
  v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Number.MAX_SAFE_INTEGER);

function stringOf(s: SchemaObject): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? min + SPAN, min + SPAN);
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern), { size: 'xsmall' }).filter(within(s));
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'uri') return fc.webUrl().filter(within(s));
  if (s.format === 'email') return fc.emailAddress().filter(within(s));
  // Mostly ASCII, sometimes any printable grapheme: a length in UTF-16 units, as zod and Ajv count it.
  const unit = fc.oneof(
    { arbitrary: fc.constant('grapheme-ascii' as const), weight: 3 },
    fc.constant('grapheme' as const),
  );
  return unit.chain((u) => fc.string({ unit: u, minLength: min, maxLength: max })).filter(within(s));
}

function numberOf(s: SchemaObject, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : -1e6);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : 1e6);
  const strict = (v: number) =>
    (s.exclusiveMinimum === undefined || v > s.exclusiveMinimum) &&
    (s.exclusiveMaximum === undefined || v < s.exclusiveMaximum);
  const arb = integer
    ? fc.integer({ min: Math.ceil(Math.max(lo, -1e9)), max: Math.floor(Math.min(hi, 1e9)) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).map((v) => (Object.is(v, -0) ? 0 : v));
  return arb.filter(strict);
}

function arrayOf(s: SchemaObject, depth: number): fc.Arbitrary<unknown[]> {
  const head = (s.prefixItems ?? []).map((p) => validOf(p, depth + 1));
  const min = Math.max(0, (s.minItems ?? 0) - head.length);
  const room = s.maxItems !== undefined ? s.maxItems - head.length : min + 3;
  const max = depth >= MAX_DEPTH ? min : Math.max(min, Math.min(room, min + 3));
  const rest =
    s.items === false || (s.prefixItems && s.items === undefined)
      ? fc.constant([])
      : fc.array(validOf(s.items ?? true, depth + 1), { minLength: min, maxLength: max });
  return fc.tuple(fc.tuple(...head), rest).map(([h, r]) => [...h, ...r]);
}

function objectOf(s: SchemaObject, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const keys = Object.keys(props).filter((k) => depth < MAX_DEPTH || required.has(k));
  const known = fc.record(Object.fromEntries(keys.map((k) => [k, validOf(props[k] ?? true, depth + 1)])), {
    requiredKeys: keys.filter((k) => required.has(k)),
  });
  const extra = s.additionalProperties;
  if (extra === false || extra === undefined || depth >= MAX_DEPTH) return known;
  const name = s.propertyNames ? validOf(s.propertyNames, depth + 1) : fc.string({ minLength: 1, maxLength: 12 });
  const more = fc.dictionary(
    name.filter((k): k is string => typeof k === 'string' && !(k in props)),
    validOf(extra, depth + 1),
    { maxKeys: 3, noNullPrototype: true },
  );
  return fc.tuple(known, more).map(([a, b]) => ({ ...b, ...a }));
}

/** One JSON type's values under the schema's keywords for it. */
function ofType(t: JsonType, s: SchemaObject, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'string':
      return stringOf(s);
    case 'number':
    case 'integer':
      return numberOf(s, t === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayOf(s, depth);
    case 'object':
      return objectOf(s, depth);
  }
}

/**
 * Values valid under `schema` (for the keywords listed in `JsonSchema`): each type, enum, const, anyOf/oneOf branch,
 * length, range, pattern and format is respected; optional properties come and go; objects and arrays stay small.
 */
export function validOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true) return anyJson;
  if (schema === false) throw new Error('no value is valid under the schema `false`');
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => validOf(b, depth)));
  if (schema.allOf) return validOf(Object.assign({}, ...schema.allOf.filter((b) => typeof b === 'object')), depth);
  const types = typesOf(schema);
  if (!types.length) return anyJson;
  return fc.oneof(...types.map((t) => ofType(t, schema, depth)));
}
