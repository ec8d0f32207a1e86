import { isWriteClause, type Query } from './ast.ts';
import { compileMatch, type CompileCtx } from './compile-match.ts';
import { compileReturn } from './compile-return.ts';
import { compileWrites, type WritePlan } from './compile-write.ts';
import { CypherError, errorAt, READ_ONLY_MESSAGE } from './errors.ts';
import { Params, type Scope } from './sql.ts';

/** How one `twin.query_cypher` call may run. */
export interface CypherOptions {
  /** Values of `$name` parameters. */
  params?: Record<string, unknown>;
  /** Project the call is scoped to; when set, the query must use the parameter $project_id (its value is this). */
  projectScope?: string;
  /** Run whose drafts the caller may see (drafts of other runs are invisible). */
  runId?: string;
  /** The launcher flag --allow-twin-mutations. */
  allowMutations?: boolean;
  /** Rows returned at most (default 1000, at most 10000); more are cut and reported as truncated. */
  maxRows?: number;
  /** Statement timeout in milliseconds (default 30000). */
  timeoutMs?: number;
}

/** Default row cap of a result. */
export const DEFAULT_MAX_ROWS = 1000;

/** Highest row cap a caller may ask for. */
export const MAX_ROWS_CEILING = 10_000;

/** A compiled query: SQL with bound parameters only, the result column names, and the write plan of a write query. */
export interface CompiledCypher {
  sql: string;
  params: unknown[];
  columns: string[];
  maxRows: number;
  writes?: WritePlan;
}

/** True when `$name` occurs anywhere in the query. */
function usesParam(x: unknown, name: string): boolean {
  if (Array.isArray(x)) return x.some((v) => usesParam(v, name));
  if (x === null || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  if (o.kind === 'param' && o.name === name) return true;
  return Object.values(o).some((v) => usesParam(v, name));
}

/** The parameters of a call: the project scope binds $project_id; a query whose MATCH never uses it is refused (spec rule 11). */
function scopedParams(q: Query, opts: CypherOptions): Record<string, unknown> {
  const params = { ...(opts.params ?? {}) };
  const scope = opts.projectScope;
  if (scope === undefined) return params;
  if (params.project_id !== undefined && params.project_id !== scope) {
    throw new CypherError(
      'project_scope',
      `This call is scoped to project ${scope}; the parameter $project_id cannot name another project`,
      {
        hint: 'leave project_id out of params: it is supplied for you',
      },
    );
  }
  // It must filter what is matched: a $project_id used only in RETURN scopes nothing.
  const matches = q.clauses.filter((c) => c.kind === 'match');
  if (!usesParam(matches, 'project_id')) {
    throw new CypherError(
      'project_scope',
      'This call is scoped to a project: bind it, for example MATCH (n {project_id: $project_id}) ... ' +
        'or WHERE n.project_id = $project_id; $project_id is supplied for you',
      { hint: 'add {project_id: $project_id} to the node patterns you match' },
    );
  }
  params.project_id = scope;
  return params;
}

/** Compiles a parsed query to one SQL statement over twin_nodes and twin_edges; refuses writes unless allowed. */
export function compileCypher(q: Query, opts: CypherOptions = {}): CompiledCypher {
  const write = q.clauses.find(isWriteClause);
  if (write && !opts.allowMutations) {
    throw errorAt(
      'read_only',
      q.source,
      write.pos,
      READ_ONLY_MESSAGE,
      'read with MATCH ... RETURN, or record changes with the twin write tools',
    );
  }
  const maxRows = Math.min(Math.max(1, Math.floor(opts.maxRows ?? DEFAULT_MAX_ROWS)), MAX_ROWS_CEILING);
  const ctx: CompileCtx = {
    params: new Params(),
    userParams: scopedParams(q, opts),
    source: q.source,
    runId: opts.runId,
    seq: { n: 1 },
  };
  let scope: Scope = new Map();
  const joins = ['(SELECT 1) AS s0'];
  let i = 0;
  for (; i < q.clauses.length; i++) {
    const c = q.clauses[i];
    if (c.kind !== 'match') break;
    const sub = `s${i + 1}`;
    const m = compileMatch(c, scope, ctx, sub);
    joins.push(
      c.optional ? `LEFT JOIN LATERAL (${m.sql}) AS ${sub} ON true` : `CROSS JOIN LATERAL (${m.sql}) AS ${sub}`,
    );
    scope = m.scope;
  }
  const from = joins.join(' ');
  const rest = q.clauses.slice(i);
  if (rest.length === 1 && rest[0].kind === 'return') {
    const r = compileReturn(rest[0], scope, from, ctx, maxRows);
    return { sql: r.sql, params: ctx.params.values, columns: r.columns, maxRows };
  }
  const writes = compileWrites(rest, scope, from, ctx);
  return { sql: writes.sql, params: ctx.params.values, columns: [...WRITE_COUNTS], maxRows, writes };
}

/** Result columns of a write query. */
export const WRITE_COUNTS = ['properties_set', 'relationships_created', 'relationships_deleted'] as const;
