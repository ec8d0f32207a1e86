import pg from 'pg';
import type { Db, Queryable, QueryResult } from './db.ts';
import { refuseNulParams } from './nul-guard.ts';

/** Quotes a LISTEN channel name as an identifier. */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `Db` over a `pg.Pool`; `tx` and `listen` take a dedicated client. Also backs PGlite (see pglite.ts). */
export class PgDb implements Db {
  readonly kind: 'pg' | 'pglite';
  readonly pool: pg.Pool;

  constructor(pool: pg.Pool, kind: 'pg' | 'pglite' = 'pg') {
    this.pool = pool;
    this.kind = kind;
  }

  async query<T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    refuseNulParams(params);
    const res = await this.pool.query(sql, params as unknown[]);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
  }

  async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // The server may end the session while the transaction sits idle (idle_in_transaction_session_timeout): the client
    // then emits 'error' with no query to fail, which would crash the process unheard. Kept, it fails the next query,
    // and the broken client is discarded on release instead of going back to the pool.
    let broken: Error | undefined;
    const onError = (err: Error) => (broken ??= err);
    client.on('error', onError);
    const q: Queryable = {
      query: async <R>(sql: string, params?: unknown[]) => {
        refuseNulParams(params);
        const res = await client.query(sql, params as unknown[]);
        return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 };
      },
    };
    try {
      await client.query('BEGIN');
      const out = await fn(q);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.pool.connect();
    const handler = (msg: pg.Notification) => {
      if (msg.channel === channel) onPayload(msg.payload ?? '');
    };
    client.on('notification', handler);
    await client.query(`LISTEN ${ident(channel)}`);
    return async () => {
      client.off('notification', handler);
      await client.query(`UNLISTEN ${ident(channel)}`).catch(() => undefined);
      client.release();
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** Server-side bounds of every connection of the pool, in ms (0 or absent = the server's default, none). */
export interface PgTimeouts {
  statementTimeoutMs?: number;
  idleTxTimeoutMs?: number;
}

/**
 * Connects to a real PostgreSQL server. The timeouts are session parameters sent at connect (decision 0142): a
 * transaction left idle by a paused or hung process is ended by the server, releasing the run row it held.
 */
export function createPgDb(url: string, max = 10, timeouts: PgTimeouts = {}): PgDb {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    ...(timeouts.statementTimeoutMs ? { statement_timeout: timeouts.statementTimeoutMs } : {}),
    ...(timeouts.idleTxTimeoutMs ? { idle_in_transaction_session_timeout: timeouts.idleTxTimeoutMs } : {}),
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new PgDb(pool, 'pg');
}
