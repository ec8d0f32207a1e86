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
