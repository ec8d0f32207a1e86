import type { Expr } from './ast.ts';
import { errorAt } from './errors.ts';
import { bindingValue, json, lookup, type ExprEnv, type Sql } from './expr-env.ts';
import { orderKeys, textOf } from './sql.ts';

type Call = Extract<Expr, { kind: 'call' }>;
type Compile = (e: Expr, env: ExprEnv) => Sql;

/** Aggregate functions (lower-case); they group by the other RETURN items. */
export const AGGREGATES = new Set(['count', 'collect', 'min', 'max', 'sum', 'avg']);

const SCALARS = ['id', 'labels', 'type', 'tolower', 'toupper', 'size', 'coalesce', 'exists'];

const SUPPORTED_FUNCTIONS =
  'id, labels, type, toLower, toUpper, size, coalesce, exists, count, collect, min, max, sum, avg';

/** True when the expression contains an aggregate call anywhere. */
export function hasAggregate(e: Expr): boolean {
  switch (e.kind) {
    case 'call':
      return AGGREGATES.has(e.name.toLowerCase()) || e.args.some(hasAggregate);
    case 'prop':
      return hasAggregate(e.target);
    case 'index':
      return hasAggregate(e.target) || hasAggregate(e.index);
    case 'list':
      return e.items.some(hasAggregate);
    case 'map':
      return e.entries.some((en) => hasAggregate(en.value));
    case 'not':
    case 'neg':
    case 'isNull':
      return hasAggregate(e.arg);
    case 'binary':
      return hasAggregate(e.left) || hasAggregate(e.right);
    default:
      return false;
  }
}

/** Compiles a function call; `compile` is the expression compiler (passed in to keep the modules acyclic). */
export function compileCall(e: Call, env: ExprEnv, compile: Compile): Sql {
  const name = e.name.toLowerCase();
  const fail = (message: string, hint?: string): never => {
    throw errorAt('semantic', env.source, e.pos, message, hint);
  };
  if (!AGGREGATES.has(name) && !SCALARS.includes(name)) {
    throw errorAt(
      'unsupported',
      env.source,
      e.pos,
      `Function ${e.name}() is not supported by twin.query_cypher`,
      `supported functions: ${SUPPORTED_FUNCTIONS}`,
    );
  }
  if (e.star && name !== 'count') fail(`${e.name}(*) is not valid; only count(*) takes *`);
  if (e.distinct && !AGGREGATES.has(name)) fail(`DISTINCT is only valid inside an aggregate such as count(DISTINCT x)`);
  const arity = name === 'coalesce' ? e.args.length >= 1 : e.star || e.args.length === 1;
  if (!arity) fail(`${e.name}() takes ${name === 'coalesce' ? 'at least one argument' : 'exactly one argument'}`);
  if (AGGREGATES.has(name)) {
    if (!env.aggregates) {
      fail(
        `Aggregate ${e.name}() is only allowed in RETURN (and not inside another aggregate)`,
        'filter rows with WHERE, then aggregate in RETURN',
      );
    }
    return aggregate(name, e, { ...env, aggregates: false }, compile);
  }
  // id(), labels() and type() take a variable: a bound row, or a returned object after aggregation.
  const entity = (kind: 'node' | 'rel' | 'node or relationship'): { ref: string; row: boolean } => {
    const a = e.args[0];
    const b = a.kind === 'var' ? lookup(env, a.name, a.pos) : undefined;
    const k = b?.kind === 'value' ? b.entity : b?.kind;
    if (!b || !(k === 'node' || k === 'rel') || (kind !== 'node or relationship' && k !== kind)) {
      return fail(`${e.name}() takes a ${kind} variable`);
    }
    return { ref: b.ref, row: b.kind !== 'value' };
  };
  switch (name) {
    case 'id': {
      const { ref, row } = entity('node or relationship');
      return { sql: row ? `to_jsonb(${ref}.id)` : `(${ref} -> 'id')`, type: 'json' };
    }
    case 'labels': {
      const { ref, row } = entity('node');
      const type = row ? `${ref}.node_type` : `(${ref} -> 'node_type')`;
      return { sql: `(CASE WHEN ${type} IS NULL THEN NULL ELSE jsonb_build_array(${type}) END)`, type: 'json' };
    }
    case 'type': {
      const { ref, row } = entity('rel');
      return { sql: row ? `to_jsonb(${ref}.rel_type)` : `(${ref} -> 'type')`, type: 'json' };
    }
    case 'tolower':
    case 'toupper': {
      const x = json(compile(e.args[0], env));
      return { sql: `to_jsonb(${name === 'tolower' ? 'lower' : 'upper'}(${textOf(x)}))`, type: 'json' };
    }
    case 'size': {
      const a = e.args[0];
      const b = a.kind === 'var' ? env.scope.get(a.name) : undefined;
      if (b?.kind === 'rels') return { sql: `to_jsonb(cardinality(${b.ref}))`, type: 'json' };
      const x = json(compile(a, env));
      return {
        sql:
          `(CASE jsonb_typeof(${x}) WHEN 'string' THEN to_jsonb(length(${x} #>> '{}')) ` +
          `WHEN 'array' THEN to_jsonb(jsonb_array_length(${x})) END)`,
        type: 'json',
      };
    }
    case 'coalesce':
      return { sql: `coalesce(${e.args.map((a) => json(compile(a, env))).join(', ')})`, type: 'json' };
    default: {
      // exists(n.prop)
      if (e.args[0].kind !== 'prop') fail('exists() takes a property, for example exists(n.material)');
      return { sql: `(${json(compile(e.args[0], env))} IS NOT NULL)`, type: 'bool' };
    }
  }
}

function aggregate(name: string, e: Call, env: ExprEnv, compile: Compile): Sql {
  if (e.star) return { sql: 'to_jsonb(count(*))', type: 'json' };
  const d = e.distinct ? 'DISTINCT ' : '';
  const a = e.args[0];
  const v = a.kind === 'var' ? lookup(env, a.name, a.pos) : undefined;
  const b = v?.kind === 'value' ? undefined : v;
  // Entities are counted and tested for null by their id; their value is the JSON object.
  const value = b ? bindingValue(b).sql : json(compile(a, env));
  const present = b ? (b.kind === 'rels' ? `${b.ref} IS NOT NULL` : `${b.ref}.id IS NOT NULL`) : `${value} IS NOT NULL`;
  switch (name) {
    case 'count':
      return { sql: `to_jsonb(count(${d}${b && b.kind !== 'rels' ? `${b.ref}.id` : value}))`, type: 'json' };
    case 'collect':
      return { sql: `coalesce(jsonb_agg(${d}${value}) FILTER (WHERE ${present}), '[]'::jsonb)`, type: 'json' };
    case 'min':
    case 'max':
      return {
        sql: `((array_agg(${value} ORDER BY ${orderKeys(value, name === 'max').join(', ')}) FILTER (WHERE ${present}))[1])`,
        type: 'json',
      };
    case 'sum':
      return { sql: `to_jsonb(coalesce(sum(${d}(${value})::numeric), 0))`, type: 'json' };
    default:
      return { sql: `to_jsonb(avg(${d}(${value})::numeric))`, type: 'json' };
  }
}
