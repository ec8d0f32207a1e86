import { errorAt } from './errors.ts';
import { relList, relObject, type Binding, type ColType, type Params, type Scope } from './sql.ts';

/**
 * A compiled expression. `json` values are jsonb (SQL NULL is Cypher null); `bool` values are SQL booleans with
 * three-valued logic. `col` is set for a raw twin_nodes column and `known` for a value fixed at compile time
 * (literal or parameter), so a comparison of the two can stay native and use the indexes.
 */
export interface Sql {
  sql: string;
  type: 'json' | 'bool';
  col?: { sql: string; type: Exclude<ColType, 'jsonb'> };
  known?: { value: unknown };
}

/** What an expression is compiled against. `aggregates` is true only directly inside RETURN items. */
export interface ExprEnv {
  params: Params;
  userParams: Record<string, unknown>;
  source: string;
  scope: Scope;
  aggregates: boolean;
}

/** The jsonb form of a compiled expression. */
export function json(e: Sql): string {
  return e.type === 'json' ? e.sql : `to_jsonb(${e.sql})`;
}

/** The boolean form: only JSON `true` is true; null stays null. */
export function bool(e: Sql): string {
  return e.type === 'bool' ? e.sql : `(${e.sql} = 'true'::jsonb)`;
}

/** The binding of variable `name`, or a positioned error listing the variables in scope. */
export function lookup(env: ExprEnv, name: string, pos: number): Binding {
  const b = env.scope.get(name);
  if (b) return b;
  const known = [...env.scope.keys()];
  throw errorAt(
    'semantic',
    env.source,
    pos,
    `Variable \`${name}\` is not defined`,
    known.length ? `variables in scope: ${known.join(', ')}` : 'bind it in a MATCH pattern first',
  );
}

/**
 * A value known at compile time. Its jsonb placeholder is bound only when the SQL text is read, so a value used
 * natively (see `compare`) leaves no unused parameter behind (PostgreSQL cannot type an unused `$n`).
 */
export function knownValue(value: unknown, params: Params): Sql {
  if (value === null || value === undefined) return { sql: 'NULL::jsonb', type: 'json', known: { value: null } };
  if (typeof value === 'boolean') return { sql: `'${value}'::jsonb`, type: 'json', known: { value } };
  let placeholder: string | undefined;
  return {
    get sql() {
      placeholder ??= params.add(value, 'jsonb');
      return placeholder;
    },
    type: 'json',
    known: { value },
  };
}

/** The value of a bound variable: a node object, a relationship object or a list of relationships. */
export function bindingValue(b: Binding): Sql {
  if (b.kind === 'value') return { sql: b.ref, type: 'json' };
  if (b.kind === 'node') return { sql: `to_jsonb(${b.ref})`, type: 'json' };
  return { sql: b.kind === 'rel' ? relObject(b.ref) : relList(b.ref), type: 'json' };
}
