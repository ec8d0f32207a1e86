/**
 * The one small database interface every actor store is written against (notes/runtime.md, "One thin interface").
 * Two backends: `pg.Pool` on a real PostgreSQL server, or PGlite (the embedded default) through pg's own client,
 * so types, errors and parameter handling are identical.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Db extends Queryable {
  /** Which backend this is; only diagnostics and tests may branch on it. */
  readonly kind: 'pg' | 'pglite';
  /** Runs `fn` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; resolves to the function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** PostgreSQL error codes the stores react to. */
export const PgErrorCodes = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
  SERIALIZATION_FAILURE: '40001',
  UNDEFINED_TABLE: '42P01',
} as const;

/** True when `err` is a PostgreSQL error with the given SQLSTATE. */
export function isPgError(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` is a UUID: anything else cannot name a row of a uuid column (and would make PostgreSQL raise). */
export function isUuid(id: unknown): id is string {
  return typeof id === 'string' && UUID.test(id);
}

/** Runs `fn` in a transaction, once more if a concurrent write created the same key first (unique violation). */
export async function txRetryOnUnique<T>(db: Db, fn: (q: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.tx(fn);
  } catch (err) {
    if (isPgError(err, PgErrorCodes.UNIQUE_VIOLATION)) return db.tx(fn);
    throw err;
  }
}

/**
 * One page of a table's rows, newest first, optionally of one project, with the count of all matching rows. `table` and
 * `order` are written by the store (never user input); the project, limit and offset are bound.
 */
export async function pageByProject<R>(
  db: Queryable,
  table: string,
  order: string,
  q: { project_id?: string; limit: number; offset: number },
): Promise<{ rows: R[]; total: number; unscoped_count: number }> {
  const where = 'WHERE ($1::text IS NULL OR project_id = $1)';
  const project = q.project_id ?? null;
  const [page, count, unscoped] = await Promise.all([
    db.query<R>(`SELECT * FROM ${table} ${where} ORDER BY ${order} LIMIT $2 OFFSET $3`, [project, q.limit, q.offset]),
    db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} ${where}`, [project]),
    project === null
      ? undefined
      : db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE project_id IS NULL`),
  ]);
  return { rows: page.rows, total: Number(count.rows[0].n), unscoped_count: Number(unscoped?.rows[0].n ?? 0) };
}
