import fc from 'fast-check';
import { typesOf, validOf, type JsonSchema, type JsonType, type SchemaObject } from './json-schema-arbitrary.ts';

/**
 * Strings a hostile caller sends: path traversal, NUL and control characters, injection payloads, odd Unicode (a lone
 * surrogate, a right-to-left override, astral characters), words a parser may treat as special, and long runs. Some
 * are valid under a plain string schema: a route must still answer them without a 500.
 */
export const HOSTILE_STRINGS: readonly string[] = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'a/../../../b',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'a\u0000b',
  '\u0000',
  'line\r\nInjected: header',
  "' OR '1'='1' --",
  '"; DROP TABLE projects; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '\ud800',
  'abc\u202edef',
  '😀🔩'.repeat(40),
  ' ',
  '',
  'null',
  '__proto__',
  'constructor',
  'valueOf',
  'toString',
  'hasOwnProperty',
  '-1',
  '1e309',
  'NaN',
  'x'.repeat(5_000),
];

/** One value of each JSON type: the wrong-type candidates. */
const SAMPLES: readonly [JsonType, unknown][] = [
  ['string', 'not-the-right-type'],
  ['number', 1.5],
  ['integer', 7],
  ['boolean', true],
  ['null', null],
  ['array', [1, 'two']],
  ['object', { unexpected: true }],
];

/** Values of a JSON type the schema does not admit (`integer` is admitted by `number`). */
function wrongTypes(types: JsonType[]): unknown[] {
  const admits = (t: JsonType) => types.includes(t) || (t === 'integer' && types.includes('number'));
  return SAMPLES.filter(([t]) => !admits(t)).map(([, v]) => v);
}

function stringBreakers(s: SchemaObject): unknown[] {
  const out: unknown[] = [];
  if (s.maxLength !== undefined) out.push('x'.repeat(s.maxLength + 1));
  if (s.minLength) out.push('x'.repeat(s.minLength - 1));
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    out.push(...HOSTILE_STRINGS.filter((h) => !re.test(h)).slice(0, 8));
  }
  return out;
}

function numberBreakers(s: SchemaObject, integer: boolean): unknown[] {
  const out: unknown[] = [1e308, -1e308];
  if (s.minimum !== undefined) out.push(s.minimum - 1);
  if (s.maximum !== undefined) out.push(s.maximum + 1);
  if (s.exclusiveMinimum !== undefined) out.push(s.exclusiveMinimum);
  if (s.exclusiveMaximum !== undefined) out.push(s.exclusiveMaximum);
  if (integer) out.push((s.minimum ?? 0) + 0.5);
  return out;
}

function objectBreakers(s: SchemaObject, depth: number): fc.Arbitrary<unknown>[] {
  const base = validOf(s, depth).map((v) => ({ ...(v as Record<string, unknown>) }));
  const out: fc.Arbitrary<unknown>[] = [];
  const required = s.required ?? [];
  if (required.length) {
    out.push(
      fc
        .tuple(base, fc.constantFrom(...required))
        .map(([o, k]) => Object.fromEntries(Object.entries(o).filter(([n]) => n !== k))),
    );
  }
  const props = Object.entries(s.properties ?? {});
  if (props.length) {
    const pick = fc.constantFrom(...props);
    out.push(pick.chain(([k, p]) => fc.tuple(base, invalidOf(p, depth + 1)).map(([o, v]) => ({ ...o, [k]: v }))));
  }
  if (s.additionalProperties === false) out.push(base.map((o) => ({ ...o, not_a_declared_field: 1 })));
  else if (s.additionalProperties !== undefined && s.additionalProperties !== true)
    out.push(fc.tuple(base, invalidOf(s.additionalProperties, depth + 1)).map(([o, v]) => ({ ...o, extra_key: v })));
  return out;
}

function arrayBreakers(s: SchemaObject, depth: number): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const item = s.items ?? true;
  if (s.maxItems !== undefined)
    out.push(fc.array(validOf(item, depth + 1), { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 }));
  if (s.minItems) out.push(fc.array(validOf(item, depth + 1), { maxLength: s.minItems - 1 }));
  if (item !== true) out.push(invalidOf(item, depth + 1).map((v) => [v]));
  return out;
}

/**
 * Values that most likely break `schema` at one place: a wrong type, an unknown enum value, a string too long or not
 * matching its pattern, a number out of range, a required field dropped, an undeclared field, or one such defect deep
 * inside an otherwise valid object or array. "Most likely": a union may accept what one branch refuses, so a caller
 * that needs to know validates the result itself (the fuzz test does, with Ajv). Hostile strings come along too.
 */
export function invalidOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema === 'boolean') return schema ? fc.constantFrom(...HOSTILE_STRINGS) : fc.constant(null);
  const fixed: unknown[] = [];
  const arbs: fc.Arbitrary<unknown>[] = [];
  if (schema.enum || 'const' in schema) fixed.push('not-a-known-value', 12345);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) arbs.push(...branches.filter((b) => typeof b === 'object').map((b) => invalidOf(b, depth + 1)));
  const types = typesOf(schema);
  if (types.length) fixed.push(...wrongTypes(types));
  if (types.includes('string') && !schema.enum) fixed.push(...stringBreakers(schema), ...HOSTILE_STRINGS);
  if (types.includes('number') || types.includes('integer'))
    fixed.push(...numberBreakers(schema, !types.includes('number')));
  if (types.includes('object') && depth < 6) arbs.push(...objectBreakers(schema, depth));
  if (types.includes('array') && depth < 6) arbs.push(...arrayBreakers(schema, depth));
  if (fixed.length) arbs.push(fc.constantFrom(...fixed));
  return arbs.length ? fc.oneof(...arbs) : fc.constantFrom(...HOSTILE_STRINGS);
}
