import type { Clause, NodePattern, RelPattern } from './ast.ts';
import { compare, compileExpr, nodeProperty } from './compile-expr.ts';
import { errorAt } from './errors.ts';
import { bool, type ExprEnv, type Sql } from './expr-env.ts';
import { labelCondition, visible, type Binding, type Params, type Scope } from './sql.ts';

/** Depth cap of variable-length relationships; `*` and `*n..` mean up to this many hops. */
export const MAX_HOPS = 10;

/** State shared by all clauses of one compilation. */
export interface CompileCtx {
  params: Params;
  userParams: Record<string, unknown>;
  source: string;
  runId?: string;
  /** Next number for generated aliases (v1, w2, ...), unique across the whole statement. */
  seq: { n: number };
}

type MatchClause = Extract<Clause, { kind: 'match' }>;

/**
 * Compiles one MATCH / OPTIONAL MATCH (patterns plus its WHERE) into a subquery joined LATERAL as `sub`:
 * it selects the row of every variable the clause binds (columns x0, x1, ...). Variables bound by earlier clauses
 * are read from their subqueries (correlated). Returns the SQL and the scope after the clause.
 */
export function compileMatch(
  clause: MatchClause,
  outer: Scope,
  ctx: CompileCtx,
  sub: string,
): { sql: string; scope: Scope } {
  const { params, source } = ctx;
  const local: Scope = new Map(outer);
  const env: ExprEnv = { params, userParams: ctx.userParams, source, scope: local, aggregates: false };
  const from: string[] = [];
  const where: string[] = [];
  const fresh: { name: string; binding: Binding; column: string }[] = [];
  const rels: Binding[] = [];
  const alias = (prefix: string) => `${prefix}${ctx.seq.n++}`;
  const bind = (name: string | undefined, binding: Binding, column: string) => {
    if (name === undefined) return;
    local.set(name, binding);
    fresh.push({ name, binding, column });
  };

  const node = (np: NodePattern): string => {
    const existing = np.variable === undefined ? undefined : local.get(np.variable);
    let ref: string;
    if (existing) {
      if (existing.kind !== 'node') {
        throw errorAt('semantic', source, np.pos, `\`${np.variable}\` is already bound to a relationship, not a node`);
      }
      ref = existing.ref;
    } else {
      ref = alias('v');
      from.push(`twin_nodes AS ${ref}`);
      where.push(visible(ref, params, ctx.runId));
      bind(np.variable, { kind: 'node', ref }, ref);
    }
    const labels = labelCondition(ref, np.labels, params);
    if (labels) where.push(labels);
    for (const en of np.props?.entries ?? []) {
      where.push(compare('=', nodeProperty(ref, en.key, params), compileExpr(en.value, env), params).sql);
    }
    return ref;
  };

  const relProps = (ref: string, rp: RelPattern): string[] =>
    (rp.props?.entries ?? []).map((en) => {
      const prop: Sql = {
        sql: `nullif(${ref}.properties -> ${params.add(en.key, 'text')}, 'null'::jsonb)`,
        type: 'json',
      };
      return compare('=', prop, compileExpr(en.value, env), params).sql;
    });

  // A walk starts from its constrained end: bound before, or given properties.
  const constrained = (np: NodePattern) =>
    (np.variable !== undefined && local.has(np.variable)) || !!np.props?.entries.length;

  const step = (rp: RelPattern, left: string, leftFree: boolean, next: NodePattern): string => {
    if (rp.range) {
      if (rp.variable !== undefined && local.has(rp.variable)) {
        throw errorAt(
          'semantic',
          source,
          rp.pos,
          `\`${rp.variable}\` is already bound; a variable-length relationship needs a new variable`,
        );
      }
      const a = alias('p');
      let right: string;
      if (leftFree && constrained(next)) {
        right = node(next);
        from.push(`LATERAL (${walk(rp, right, true, ctx, relProps)}) AS ${a}`);
        where.push(`${left}.id = ${a}.node_id`);
      } else {
        from.push(`LATERAL (${walk(rp, left, false, ctx, relProps)}) AS ${a}`);
        right = node(next);
        where.push(`${right}.id = ${a}.node_id`);
      }
      const binding: Binding = { kind: 'rels', ref: `${a}.edges` };
      rels.push(binding);
      bind(rp.variable, binding, `${a}.edges`);
      return right;
    }
    const existing = rp.variable === undefined ? undefined : local.get(rp.variable);
    if (existing && existing.kind !== 'rel') {
      const message = `\`${rp.variable}\` is already bound, and not to a single relationship`;
      throw errorAt('semantic', source, rp.pos, message);
    }
    const ref = existing?.ref ?? alias('r');
    if (!existing) {
      from.push(`twin_edges AS ${ref}`);
      bind(rp.variable, { kind: 'rel', ref }, ref);
    }
    if (!rels.some((r) => r.ref === ref)) rels.push({ kind: 'rel', ref });
    const right = node(next);
    if (rp.types.length) where.push(`${ref}.rel_type = ANY(${params.add(rp.types, 'text[]')})`);
    where.push(...relProps(ref, rp));
    const out = `(${ref}.src = ${left}.id AND ${ref}.dst = ${right}.id)`;
    const inward = `(${ref}.src = ${right}.id AND ${ref}.dst = ${left}.id)`;
    where.push(rp.direction === 'out' ? out : rp.direction === 'in' ? inward : `(${out} OR ${inward})`);
    return right;
  };

  for (const pattern of clause.patterns) {
    const startFree = !constrained(pattern.start);
    let left = node(pattern.start);
    pattern.steps.forEach((s, i) => {
      left = step(s.rel, left, i === 0 && startFree, s.node);
    });
  }
  where.push(...uniqueness(rels));
  if (clause.where) where.push(bool(compileExpr(clause.where, env)));

  const columns = fresh.map((f, i) => `${f.column} AS x${i}`);
  const sql =
    `SELECT ${columns.length ? columns.join(', ') : '1 AS one'}` +
    (from.length ? ` FROM ${from.join(', ')}` : '') +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '');
  const scope: Scope = new Map(outer);
  fresh.forEach((f, i) => {
    const k = f.binding.kind;
    scope.set(
      f.name,
      k === 'node' || k === 'rel' ? { kind: k, ref: `(${sub}.x${i})` } : { kind: 'rels', ref: `${sub}.x${i}` },
    );
  });
  return { sql, scope };
}

/** Cypher's relationship uniqueness inside one MATCH: no relationship is bound twice. */
function uniqueness(rels: Binding[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < rels.length; i++) {
    for (let j = i + 1; j < rels.length; j++) {
      const [a, b] = [rels[i], rels[j]];
      if (a.kind === 'rel' && b.kind === 'rel') out.push(`${a.ref}.id <> ${b.ref}.id`);
      else if (a.kind === 'rel') out.push(`NOT (${a.ref}.id = ANY(${b.ref}))`);
      else if (b.kind === 'rel') out.push(`NOT (${b.ref}.id = ANY(${a.ref}))`);
      else out.push(`NOT (${a.ref} && ${b.ref})`);
    }
  }
  return out;
}

/**
 * A variable-length relationship as a correlated recursive CTE yielding (node_id, edges), walked from node `start`:
 * the left node of the pattern, or its right node when `fromRight` (then edges are followed backwards and
 * prepended, so `edges` is always in pattern order). Every intermediate and end node must be visible, an edge is
 * never used twice on one path (the cycle guard), and depth stops at the upper bound, at most MAX_HOPS.
 */
function walk(
  rp: RelPattern,
  start: string,
  fromRight: boolean,
  ctx: CompileCtx,
  relProps: (ref: string, rp: RelPattern) => string[],
): string {
  const min = rp.range?.min ?? 1;
  const max = rp.range?.max ?? MAX_HOPS;
  if (max > MAX_HOPS) {
    throw errorAt(
      'unsupported',
      ctx.source,
      rp.pos,
      `Variable-length relationships are capped at ${MAX_HOPS} hops (got *..${max})`,
      `use an upper bound of at most ${MAX_HOPS}, for example *1..${MAX_HOPS}`,
    );
  }
  if (min > max) {
    throw errorAt(
      'semantic',
      ctx.source,
      rp.pos,
      `The lower bound ${min} of the variable-length relationship is above its upper bound ${max}`,
    );
  }
  const n = ctx.seq.n++;
  const [w, e, m] = [`w${n}`, `e${n}`, `m${n}`];
  const direction = !fromRight || rp.direction === 'both' ? rp.direction : rp.direction === 'out' ? 'in' : 'out';
  const next =
    direction === 'out'
      ? `${e}.dst`
      : direction === 'in'
        ? `${e}.src`
        : `CASE WHEN ${e}.src = ${w}.node_id THEN ${e}.dst ELSE ${e}.src END`;
  const conds = [
    direction === 'out'
      ? `${e}.src = ${w}.node_id`
      : direction === 'in'
        ? `${e}.dst = ${w}.node_id`
        : `(${e}.src = ${w}.node_id OR ${e}.dst = ${w}.node_id)`,
    ...(rp.types.length ? [`${e}.rel_type = ANY(${ctx.params.add(rp.types, 'text[]')})`] : []),
    ...relProps(e, rp),
  ];
  const edges = fromRight ? `${e}.id || ${w}.edges` : `${w}.edges || ${e}.id`;
  return (
    `WITH RECURSIVE ${w}(node_id, edges, depth) AS (` +
    `SELECT ${start}.id, ARRAY[]::bigint[], 0 UNION ALL ` +
    `SELECT ${next}, ${edges}, ${w}.depth + 1 FROM ${w} ` +
    `JOIN twin_edges AS ${e} ON ${conds.join(' AND ')} ` +
    `JOIN twin_nodes AS ${m} ON ${m}.id = ${next} AND ${visible(m, ctx.params, ctx.runId)} ` +
    `WHERE ${w}.depth < ${ctx.params.add(max, 'integer')} AND NOT (${e}.id = ANY(${w}.edges))` +
    `) SELECT node_id, edges FROM ${w} WHERE depth >= ${ctx.params.add(min, 'integer')}`
  );
}
