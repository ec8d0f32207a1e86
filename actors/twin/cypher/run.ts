import type { Db, Queryable } from '../../../brokers/db/index.ts';
import { applyWrites } from './apply-writes.ts';
import { compileCypher, WRITE_COUNTS, type CypherOptions } from './compile.ts';
import { CypherError } from './errors.ts';
import { parseCypher } from './parser.ts';

/** Rows of a query: `columns` in RETURN order; `truncated` when more than maxRows rows matched. */
export interface CypherResult {
  columns: string[];
  rows: Record<string, unknown>[];
  truncated: boolean;
}

function isDb(db: Queryable | Db): db is Db {
  return typeof (db as Partial<Db>).tx === 'function';
}

/** Database failures (a type error PostgreSQL caught, a timeout) become CypherErrors; ours pass through. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CypherError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new CypherError('database', `The query failed in the database: ${message}`, {
      cause: err,
      hint: 'check that compared and summed values have the same type (numbers with numbers, strings with strings)',
    });
  }
}

/**
 * Parses, compiles and runs a Cypher query against the twin. Reads run in a READ ONLY transaction with a statement
 * timeout when `db` is a `Db`; writes (only with `allowMutations`) need a `Db` and run in one transaction.
 */
export async function runCypher(db: Queryable | Db, text: string, opts: CypherOptions = {}): Promise<CypherResult> {
  const compiled = compileCypher(parseCypher(text), opts);
  const timeout = String(Math.max(1, Math.floor(opts.timeoutMs ?? 30_000)));
  const { writes } = compiled;
  if (writes) {
    if (!isDb(db)) {
      throw new CypherError(
        'semantic',
        'Mutations need a database handle with transactions (Db), not a bare Queryable',
      );
    }
    const counts = await guarded(() =>
      db.tx(async (q) => {
        await q.query("SELECT set_config('statement_timeout', $1, true)", [timeout]);
        return applyWrites(q, writes, compiled.params);
      }),
    );
    return { columns: [...WRITE_COUNTS], rows: [{ ...counts }], truncated: false };
  }
  const res = await guarded(() =>
    isDb(db)
      ? db.tx(async (q) => {
          await q.query('SET TRANSACTION READ ONLY');
          await q.query("SELECT set_config('statement_timeout', $1, true)", [timeout]);
          return q.query<Record<string, unknown>>(compiled.sql, compiled.params);
        })
      : db.query<Record<string, unknown>>(compiled.sql, compiled.params),
  );
  const rows = res.rows.map((r) => Object.fromEntries(compiled.columns.map((c, i) => [c, r[`c${i}`] ?? null])));
  const truncated = rows.length > compiled.maxRows;
  return { columns: compiled.columns, rows: truncated ? rows.slice(0, compiled.maxRows) : rows, truncated };
}
