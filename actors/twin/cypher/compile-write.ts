import type { Clause, NodePattern } from './ast.ts';
import { compileExpr } from './compile-expr.ts';
import type { CompileCtx } from './compile-match.ts';
import { errorAt } from './errors.ts';
import { json, lookup, type ExprEnv } from './expr-env.ts';
import { NODE_COLUMNS, type Scope } from './sql.ts';

/**
 * One write, applied to every row the MATCH part yields. Fields naming columns (`target`, `value`, `src`, ...)
 * are columns w0..wN of the plan's SELECT, which reads ids and new values before anything is written.
 */
export type WriteAction =
  | {
      kind: 'set';
      table: 'twin_nodes' | 'twin_edges';
      column: 'name' | 'properties';
      key: string;
      target: string;
      value: string;
      pos: number;
    }
  | { kind: 'create'; type: string; src: string; dst: string; props?: string; pos: number }
  | { kind: 'delete'; target: string; many: boolean };

/** The SELECT that feeds the writes and the writes themselves, in query order. */
export interface WritePlan {
  sql: string;
  actions: WriteAction[];
}

const SUPPORTED_WRITES =
  'SET n.key = value (properties or name), CREATE (a)-[:TYPE {...}]->(b) between matched nodes, DELETE r (relationships)';

/** Compiles the write clauses that follow the MATCH clauses (only when mutations are allowed). */
export function compileWrites(clauses: Clause[], scope: Scope, from: string, ctx: CompileCtx): WritePlan {
  const env: ExprEnv = { params: ctx.params, userParams: ctx.userParams, source: ctx.source, scope, aggregates: false };
  const select: string[] = [];
  const column = (sql: string): string => {
    const name = `w${select.length}`;
    select.push(`${sql} AS ${name}`);
    return name;
  };
  const fail = (pos: number, message: string, hint?: string): never => {
    throw errorAt('unsupported', ctx.source, pos, message, hint);
  };
  const boundNode = (np: NodePattern): string => {
    const b = np.variable === undefined ? undefined : scope.get(np.variable);
    if (b?.kind !== 'node') {
      fail(
        np.pos,
        'CREATE can only connect nodes bound by MATCH; creating nodes is not supported by twin.query_cypher',
        'create work products with the twin record tools, then link them: MATCH (a {id: $a}), (b {id: $b}) CREATE (a)-[:TYPE]->(b)',
      );
    }
    if (np.labels.length || np.props) {
      fail(np.pos, `\`${np.variable}\` is already bound; CREATE cannot add labels or properties to it`);
    }
    return b!.ref;
  };

  const actions: WriteAction[] = [];
  for (const c of clauses) {
    switch (c.kind) {
      case 'match':
        fail(
          c.pos,
          'MATCH after a write clause is not supported by twin.query_cypher',
          'put every MATCH before SET, CREATE and DELETE',
        );
        break;
      case 'return':
        fail(
          c.pos,
          'RETURN after a write is not supported by twin.query_cypher; a write query returns the counts of what it changed',
          'drop the RETURN, then query again to read the result',
        );
        break;
      case 'unsupportedWrite':
        fail(
          c.pos,
          `${c.keyword} is not supported by twin.query_cypher, even with --allow-twin-mutations; supported writes: ${SUPPORTED_WRITES}`,
        );
        break;
      case 'set':
        for (const item of c.items) {
          const v = item.target.target as { name: string; pos: number };
          const b = lookup(env, v.name, v.pos);
          const key = item.target.key;
          if (b.kind !== 'node' && b.kind !== 'rel') {
            fail(item.pos, `SET needs a node or a single relationship; \`${v.name}\` is not one`);
          }
          if (b.kind === 'node' && key !== 'name' && Object.hasOwn(NODE_COLUMNS, key)) {
            fail(
              item.pos,
              `${v.name}.${key} is kept by the twin itself and cannot be SET; only name and properties keys can`,
            );
          }
          const table = b.kind === 'node' ? 'twin_nodes' : 'twin_edges';
          const col = b.kind === 'node' && key === 'name' ? 'name' : 'properties';
          const value = column(json(compileExpr(item.value, env)));
          actions.push({
            kind: 'set',
            table,
            column: col,
            key,
            target: column(`${b.ref}.id::text`),
            value,
            pos: item.pos,
          });
        }
        break;
      case 'create':
        for (const pattern of c.patterns) {
          let left = boundNode(pattern.start);
          if (!pattern.steps.length) {
            fail(
              pattern.pos,
              'CREATE of a lone node is not supported by twin.query_cypher',
              `supported writes: ${SUPPORTED_WRITES}`,
            );
          }
          for (const { rel, node } of pattern.steps) {
            const right = boundNode(node);
            if (rel.range) fail(rel.pos, 'CREATE cannot use a variable-length relationship');
            if (rel.types.length !== 1) {
              fail(rel.pos, 'CREATE needs exactly one relationship type, for example -[:DERIVES_FROM]->');
            }
            if (rel.direction === 'both') fail(rel.pos, 'CREATE needs a direction, -[:TYPE]-> or <-[:TYPE]-');
            if (rel.variable !== undefined && scope.has(rel.variable)) {
              fail(rel.pos, `\`${rel.variable}\` is already bound`);
            }
            const [src, dst] = rel.direction === 'out' ? [left, right] : [right, left];
            actions.push({
              kind: 'create',
              type: rel.types[0],
              src: column(`${src}.id::text`),
              dst: column(`${dst}.id::text`),
              props: rel.props ? column(json(compileExpr(rel.props, env))) : undefined,
              pos: rel.pos,
            });
            left = right;
          }
        }
        break;
      case 'delete':
        for (const t of c.targets) {
          const b = t.kind === 'var' ? lookup(env, t.name, t.pos) : undefined;
          if (b?.kind === 'node') {
            fail(
              t.pos,
              'Deleting nodes is not supported by twin.query_cypher; only relationships can be deleted (DELETE r)',
              'supersede or abandon revisions with the twin tools',
            );
          }
          if (b?.kind !== 'rel' && b?.kind !== 'rels') fail(t.pos, 'DELETE takes a relationship variable');
          actions.push(
            b!.kind === 'rel'
              ? { kind: 'delete', target: column(`${b!.ref}.id::text`), many: false }
              : { kind: 'delete', target: column(b!.ref), many: true },
          );
        }
        break;
    }
  }
  return { sql: `SELECT ${select.length ? select.join(', ') : '1 AS one'} FROM ${from}`, actions };
}
