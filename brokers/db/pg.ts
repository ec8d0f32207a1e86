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
      client.release();
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

/** Connects to a real PostgreSQL server. */
export function createPgDb(url: string, max = 10): PgDb {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new PgDb(pool, 'pg');
}
