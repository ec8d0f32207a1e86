import type { BinaryOp, Expr } from './ast.ts';
import { compileCall } from './compile-fn.ts';
import { errorAt } from './errors.ts';
import { bindingValue, bool, json, knownValue, lookup, type ExprEnv, type Sql } from './expr-env.ts';
import { castOf, fitsColumn, labelCondition, NODE_COLUMNS, textOf, type Params } from './sql.ts';

/** `ref.key` of a node: a column when the key is one, else `properties->key` (JSON null read as null). */
export function nodeProperty(ref: string, key: string, params: Params): Sql {
  const type = Object.hasOwn(NODE_COLUMNS, key) ? NODE_COLUMNS[key] : undefined;
  if (type === 'jsonb') return { sql: `${ref}.${key}`, type: 'json' };
  if (type) return { sql: `to_jsonb(${ref}.${key})`, type: 'json', col: { sql: `${ref}.${key}`, type } };
  return { sql: `nullif(${ref}.properties -> ${params.add(key, 'text')}, 'null'::jsonb)`, type: 'json' };
}

/** Compiles an expression to SQL against the variables of `env.scope`. */
export function compileExpr(e: Expr, env: ExprEnv): Sql {
  switch (e.kind) {
    case 'literal':
      return knownValue(e.value, env.params);
    case 'param':
      return knownValue(paramValue(e.name, e.pos, env), env.params);
    case 'var':
      return bindingValue(lookup(env, e.name, e.pos));
    case 'prop':
      return property(e, env);
    case 'index': {
      const t = json(compileExpr(e.target, env));
      const i = json(compileExpr(e.index, env));
      return {
        sql:
          `(CASE WHEN jsonb_typeof(${i}) = 'number' AND jsonb_typeof(${t}) = 'array' ` +
          `THEN nullif(${t} -> ((${i})::numeric)::integer, 'null'::jsonb) ` +
          `WHEN jsonb_typeof(${i}) = 'string' AND jsonb_typeof(${t}) = 'object' ` +
          `THEN nullif(${t} -> (${i} #>> '{}'), 'null'::jsonb) END)`,
        type: 'json',
      };
    }
    case 'list': {
      const items = e.items.map((i) => compileExpr(i, env));
      if (items.every((i) => i.known)) {
        return knownValue(
          items.map((i) => i.known!.value),
          env.params,
        );
      }
      return { sql: `jsonb_build_array(${items.map(json).join(', ')})`, type: 'json' };
    }
    case 'map': {
      const values = e.entries.map((en) => compileExpr(en.value, env));
      if (values.every((v) => v.known)) {
        return knownValue(Object.fromEntries(e.entries.map((en, i) => [en.key, values[i].known!.value])), env.params);
      }
      const args = e.entries.map((en, i) => `${env.params.add(en.key, 'text')}, ${json(values[i])}`);
      return { sql: `jsonb_build_object(${args.join(', ')})`, type: 'json' };
    }
    case 'not':
      return { sql: `(NOT ${bool(compileExpr(e.arg, env))})`, type: 'bool' };
    case 'neg': {
      const a = json(compileExpr(e.arg, env));
      return { sql: `(CASE WHEN jsonb_typeof(${a}) = 'number' THEN to_jsonb(-(${a})::numeric) END)`, type: 'json' };
    }
    case 'isNull': {
      const a = compileExpr(e.arg, env);
      return { sql: `(${a.sql} IS ${e.negated ? 'NOT ' : ''}NULL)`, type: 'bool' };
    }
    case 'hasLabels': {
      const b = e.target.kind === 'var' ? lookup(env, e.target.name, e.target.pos) : undefined;
      if (b?.kind !== 'node') {
        throw errorAt('semantic', env.source, e.pos, 'A label test (n:Label) needs a node variable');
      }
      return {
        sql: `(${b.ref}.id IS NOT NULL AND ${labelCondition(b.ref, e.labels, env.params) ?? 'true'})`,
        type: 'bool',
      };
    }
    case 'call':
      return compileCall(e, env, compileExpr);
    case 'binary':
      return compileBinary(e.op, e.left, e.right, env);
  }
}

/** The value of `$name`, normalised through JSON; a missing parameter is an error naming it. */
export function paramValue(name: string, pos: number, env: Pick<ExprEnv, 'userParams' | 'source'>): unknown {
  const v = Object.hasOwn(env.userParams, name) ? env.userParams[name] : undefined;
  if (v === undefined) {
    const given = Object.keys(env.userParams);
    throw errorAt(
      'parameter',
      env.source,
      pos,
      `Parameter $${name} was not supplied`,
      given.length ? `supplied parameters: ${given.map((g) => `$${g}`).join(', ')}` : 'pass it in params',
    );
  }
  return JSON.parse(JSON.stringify(v)) as unknown;
}

function property(e: Extract<Expr, { kind: 'prop' }>, env: ExprEnv): Sql {
  if (e.target.kind === 'var') {
    const b = lookup(env, e.target.name, e.target.pos);
    if (b.kind === 'node') return nodeProperty(b.ref, e.key, env.params);
    if (b.kind === 'rel') {
      return { sql: `nullif(${b.ref}.properties -> ${env.params.add(e.key, 'text')}, 'null'::jsonb)`, type: 'json' };
    }
    if (b.kind === 'value') {
      // A returned node or relationship object: columns at the top, other keys under properties.
      const nested = b.entity === 'rel' || (b.entity === 'node' && !Object.hasOwn(NODE_COLUMNS, e.key));
      return {
        sql: `nullif(${b.ref}${nested ? ` -> 'properties'` : ''} -> ${env.params.add(e.key, 'text')}, 'null'::jsonb)`,
        type: 'json',
      };
    }
    throw errorAt(
      'semantic',
      env.source,
      e.pos,
      `\`${e.target.name}\` is a list of relationships (variable length); it has no property ${e.key}`,
      'bind a single relationship with -[r:TYPE]-> to read its properties',
    );
  }
  const t = json(compileExpr(e.target, env));
  return { sql: `nullif(${t} -> ${env.params.add(e.key, 'text')}, 'null'::jsonb)`, type: 'json' };
}

const FLIP: Record<string, BinaryOp> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<>': '<>' };

function compileBinary(op: BinaryOp, left: Expr, right: Expr, env: ExprEnv): Sql {
  if (op === 'AND' || op === 'OR' || op === 'XOR') {
    const a = bool(compileExpr(left, env));
    const b = bool(compileExpr(right, env));
    return { sql: `(${a} ${op === 'XOR' ? '<>' : op} ${b})`, type: 'bool' };
  }
  // Two node (or two relationship) variables compare by identity.
  if ((op === '=' || op === '<>') && left.kind === 'var' && right.kind === 'var') {
    const a = lookup(env, left.name, left.pos);
    const b = lookup(env, right.name, right.pos);
    if ((a.kind === 'node' || a.kind === 'rel') && a.kind === b.kind) {
      return { sql: `(${a.ref}.id ${op} ${b.ref}.id)`, type: 'bool' };
    }
  }
  const a = compileExpr(left, env);
  const b = compileExpr(right, env);
  switch (op) {
    case '=':
    case '<>':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(op, a, b, env.params);
    case 'IN':
      return inList(a, b, env.params);
    case 'STARTS WITH':
    case 'ENDS WITH':
    case 'CONTAINS':
      return stringPredicate(op, a, b, env.params);
    default:
      return arithmetic(op, json(a), json(b));
  }
}

/** `a op b` with Cypher semantics: values of different types are not ordered (null). */
export function compare(op: BinaryOp, a: Sql, b: Sql, params: Params): Sql {
  const native = nativeCompare(op, a, b, params) ?? nativeCompare(FLIP[op], b, a, params);
  if (native) return { sql: native, type: 'bool' };
  const x = json(a);
  const y = json(b);
  if (op === '=' || op === '<>') return { sql: `(${x} ${op} ${y})`, type: 'bool' };
  return {
    sql:
      `(CASE WHEN jsonb_typeof(${x}) = 'string' AND jsonb_typeof(${y}) = 'string' ` +
      `THEN (${x} #>> '{}') COLLATE "C" ${op} (${y} #>> '{}') COLLATE "C" ` +
      `WHEN jsonb_typeof(${x}) = jsonb_typeof(${y}) AND jsonb_typeof(${x}) IN ('number', 'boolean') THEN ${x} ${op} ${y} END)`,
    type: 'bool',
  };
}

function nativeCompare(op: BinaryOp, a: Sql, b: Sql, params: Params): string | undefined {
  if (!a.col || !b.known || !fitsColumn(a.col.type, b.known.value)) return undefined;
  const ordering = op !== '=' && op !== '<>';
  if (ordering && a.col.type === 'uuid') return undefined;
  const p = params.add(b.known.value, castOf(a.col.type));
  if (ordering && a.col.type === 'text') return `(${a.col.sql} COLLATE "C" ${op} ${p} COLLATE "C")`;
  return `(${a.col.sql} ${op} ${p})`;
}

function inList(a: Sql, list: Sql, params: Params): Sql {
  const values = list.known?.value;
  if (a.col && Array.isArray(values) && values.length && values.every((v) => fitsColumn(a.col!.type, v))) {
    return { sql: `(${a.col.sql} = ANY(${params.add(values, `${castOf(a.col.type)}[]`)}))`, type: 'bool' };
  }
  const x = json(a);
  const l = json(list);
  return {
    sql:
      `(CASE WHEN ${l} IS NULL OR jsonb_typeof(${l}) <> 'array' THEN NULL WHEN jsonb_array_length(${l}) = 0 THEN false ` +
      `WHEN ${x} IS NULL THEN NULL WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(${l}) AS el(v) WHERE el.v = ${x}) THEN true ` +
      `WHEN ${l} @> '[null]'::jsonb THEN NULL ELSE false END)`,
    type: 'bool',
  };
}

function stringPredicate(op: 'STARTS WITH' | 'ENDS WITH' | 'CONTAINS', a: Sql, b: Sql, params: Params): Sql {
  const native = a.col?.type === 'text' && typeof b.known?.value === 'string';
  const x = native ? a.col!.sql : textOf(json(a));
  const y = native ? params.add(b.known!.value, 'text') : textOf(json(b));
  if (op === 'STARTS WITH') return { sql: `starts_with(${x}, ${y})`, type: 'bool' };
  if (op === 'ENDS WITH') return { sql: `(right(${x}, length(${y})) = ${y})`, type: 'bool' };
  return { sql: `(strpos(${x}, ${y}) > 0)`, type: 'bool' };
}

function arithmetic(op: BinaryOp, x: string, y: string): Sql {
  const nums = `jsonb_typeof(${x}) = 'number' AND jsonb_typeof(${y}) = 'number'`;
  const a = `(${x})::numeric`;
  const b = `(${y})::numeric`;
  if (op === '+') {
    return {
      sql:
        `(CASE WHEN ${nums} THEN to_jsonb(${a} + ${b}) ` +
        `WHEN jsonb_typeof(${x}) = 'array' AND jsonb_typeof(${y}) = 'array' THEN ${x} || ${y} ` +
        `WHEN jsonb_typeof(${x}) IN ('string', 'number') AND jsonb_typeof(${y}) IN ('string', 'number') ` +
        `THEN to_jsonb((${x} #>> '{}') || (${y} #>> '{}')) END)`,
      type: 'json',
    };
  }
  // Cypher divides integers as integers: 7 / 2 = 3.
  const value =
    op === '/'
      ? `CASE WHEN scale(${a}) = 0 AND scale(${b}) = 0 THEN trunc(${a} / ${b}) ELSE ${a} / ${b} END`
      : `${a} ${op} ${b}`;
  return { sql: `(CASE WHEN ${nums} THEN to_jsonb(${value}) END)`, type: 'json' };
}
