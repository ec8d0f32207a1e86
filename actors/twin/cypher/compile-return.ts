import type { Clause, Expr, ReturnItem } from './ast.ts';
import { compileExpr, paramValue } from './compile-expr.ts';
import { hasAggregate } from './compile-fn.ts';
import type { CompileCtx } from './compile-match.ts';
import { errorAt } from './errors.ts';
import { json, type ExprEnv } from './expr-env.ts';
import { orderKeys, type Binding, type Scope } from './sql.ts';

type ReturnClause = Extract<Clause, { kind: 'return' }>;

/** A compiled RETURN: the statement, its column names (result keys) and the row limit it asks for. */
export interface CompiledReturn {
  sql: string;
  columns: string[];
}

/** True when the two expressions are the same tree (positions ignored). */
function sameExpr(a: Expr, b: Expr): boolean {
  const canon = (e: Expr) => JSON.stringify(e, (k, v: unknown) => (k === 'pos' ? undefined : v));
  return canon(a) === canon(b);
}

/** Replaces variables named like a RETURN alias by the aliased expression (aliases shadow variables). */
function substitute(e: Expr, aliases: Map<string, Expr>): Expr {
  const visit = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(visit);
    if (x === null || typeof x !== 'object') return x;
    const o = x as { kind?: string; name?: string };
    if (o.kind === 'var' && o.name !== undefined && aliases.has(o.name)) return aliases.get(o.name);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, visit(v)]));
  };
  return visit(e) as Expr;
}

/** SKIP / LIMIT: a non-negative whole number, written or as a parameter. */
function count(e: Expr | undefined, what: string, ctx: CompileCtx): number | undefined {
  if (!e) return undefined;
  const v = e.kind === 'literal' ? e.value : e.kind === 'param' ? paramValue(e.name, e.pos, ctx) : undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw errorAt(
      'semantic',
      ctx.source,
      e.pos,
      `${what} takes a non-negative whole number or a parameter holding one`,
    );
  }
  return v;
}

/** Items of RETURN, with `*` expanded to every named variable in scope (sorted by name, as Cypher does). */
function returnItems(r: ReturnClause, scope: Scope, ctx: CompileCtx): ReturnItem[] {
  if (!r.star) return r.items;
  const names = [...scope.keys()].sort();
  if (!names.length) throw errorAt('semantic', ctx.source, r.pos, 'RETURN * needs at least one named variable');
  return [
    ...names.map((name) => ({ expr: { kind: 'var' as const, name, pos: r.pos }, text: name, pos: r.pos })),
    ...r.items,
  ];
}

/**
 * Compiles RETURN over `from` (the joined MATCH subqueries). Items are projected as c0..cN in an inner SELECT
 * (DISTINCT, GROUP BY the non-aggregate items when any item aggregates); an outer SELECT orders with Cypher's
 * ordering and applies SKIP and LIMIT (capped at maxRows + 1 so truncation can be detected).
 */
export function compileReturn(
  r: ReturnClause,
  scope: Scope,
  from: string,
  ctx: CompileCtx,
  maxRows: number,
): CompiledReturn {
  const items = returnItems(r, scope, ctx);
  const columns = items.map((i) => i.alias ?? i.text);
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup !== undefined) {
    throw errorAt(
      'semantic',
      ctx.source,
      r.pos,
      `Two RETURN columns are named ${dup}`,
      'give one of them another name with AS',
    );
  }
  const env: ExprEnv = { params: ctx.params, userParams: ctx.userParams, source: ctx.source, scope, aggregates: true };
  const select = items.map((i, k) => `${json(compileExpr(i.expr, env))} AS c${k}`);
  const isAgg = items.map((i) => hasAggregate(i.expr));
  const grouped = isAgg.some(Boolean);
  const groupBy = isAgg.flatMap((agg, k) => (agg ? [] : [k + 1]));

  const aliases = new Map(items.flatMap((i): [string, Expr][] => (i.alias === undefined ? [] : [[i.alias, i.expr]])));
  // After DISTINCT or aggregation only the returned values exist: bind them (entity objects keep their kind).
  const projected: Scope = new Map();
  items.forEach((i, k) => {
    const name = i.alias ?? (i.expr.kind === 'var' ? i.expr.name : undefined);
    if (name === undefined) return;
    const b = i.expr.kind === 'var' ? scope.get(i.expr.name) : undefined;
    const entity = b?.kind === 'node' || b?.kind === 'rel' ? b.kind : undefined;
    projected.set(name, { kind: 'value', ref: `q.c${k}`, entity } satisfies Binding);
  });

  const keys: string[] = [];
  let hidden = 0;
  for (const o of r.orderBy) {
    let k = o.expr.kind === 'var' ? items.findIndex((i) => i.alias === (o.expr as { name: string }).name) : -1;
    if (k < 0) k = items.findIndex((i) => sameExpr(i.expr, o.expr));
    if (k >= 0) {
      keys.push(...orderKeys(`q.c${k}`, o.descending));
    } else if (grouped || r.distinct) {
      const outer: ExprEnv = { ...env, scope: projected, aggregates: false };
      try {
        keys.push(...orderKeys(json(compileExpr(o.expr, outer)), o.descending));
      } catch (err) {
        const why = (err as Error).message.replace(/ \(line \d+, column \d+\)$/, '');
        throw errorAt(
          'semantic',
          ctx.source,
          o.pos,
          `ORDER BY after ${grouped ? 'an aggregation' : 'DISTINCT'} can only use returned values: ${why}`,
          'return the value with an alias (RETURN x AS a ... ORDER BY a)',
        );
      }
    } else {
      const expr = substitute(o.expr, aliases);
      select.push(`${json(compileExpr(expr, { ...env, aggregates: false }))} AS o${hidden}`);
      keys.push(...orderKeys(`q.o${hidden++}`, o.descending));
    }
  }

  const skip = count(r.skip, 'SKIP', ctx);
  const limit = Math.min(count(r.limit, 'LIMIT', ctx) ?? Infinity, maxRows + 1);
  const inner =
    `SELECT ${r.distinct ? 'DISTINCT ' : ''}${select.join(', ')} FROM ${from}` +
    (grouped && groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '');
  const sql =
    `SELECT ${items.map((_, k) => `q.c${k}`).join(', ')} FROM (${inner}) AS q` +
    (keys.length ? ` ORDER BY ${keys.join(', ')}` : '') +
    (skip ? ` OFFSET ${ctx.params.add(skip, 'bigint')}` : '') +
    ` LIMIT ${ctx.params.add(limit, 'bigint')}`;
  return { sql, columns };
}
