import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPgError, migrate, PgErrorCodes, readMigrations, type Db } from '../../brokers/db/index.ts';

/**
 * One contract suite for the database port (STYLE R14), run against PGlite and a real PostgreSQL server.
 * `make` returns a fresh, empty database.
 */
export function describeDb(backend: string, make: () => Promise<{ db: Db; dispose(): Promise<void> }>): void {
  describe(`database port on ${backend}`, () => {
    let db: Db;
    let dispose: () => Promise<void>;

    beforeAll(async () => {
      ({ db, dispose } = await make());
      await migrate(db);
    });
    afterAll(async () => {
      await dispose();
    });

    it('applies every migration once and records it', async () => {
      const all = await readMigrations();
      expect(await migrate(db)).toEqual([]);
      const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(all.map((m) => m.version));
    });

    it('refuses an applied migration whose text changed', async () => {
      const [first, ...rest] = await readMigrations();
      await expect(migrate(db, [{ ...first, sql: `${first.sql}\n-- edited`, checksum: 'x' }, ...rest])).rejects.toThrow(
        /was changed after it was applied/,
      );
    });

    it('returns rows with pg types: integers as numbers, bigint as string, timestamptz as Date', async () => {
      const { rows } = await db.query<{ i: number; b: string; t: Date; j: { a: number } }>(
        'SELECT 1::int AS i, 9007199254740993::bigint AS b, now() AS t, \'{"a":1}\'::jsonb AS j',
      );
      expect(rows[0].i).toBe(1);
      expect(rows[0].b).toBe('9007199254740993');
      expect(rows[0].t).toBeInstanceOf(Date);
      expect(rows[0].j).toEqual({ a: 1 });
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      await db.query('CREATE TABLE IF NOT EXISTS tx_probe (id int PRIMARY KEY)');
      await db.tx(async (q) => {
        await q.query('INSERT INTO tx_probe VALUES (1)');
      });
      await expect(
        db.tx(async (q) => {
          await q.query('INSERT INTO tx_probe VALUES (2)');
          throw new Error('midway');
        }),
      ).rejects.toThrow('midway');
      const { rows } = await db.query<{ id: number }>('SELECT id FROM tx_probe ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual([1]);
    });

    it('reports a unique violation with its SQLSTATE', async () => {
      await db.query("INSERT INTO projects (id, name) VALUES ('dup', 'a')");
      const err = await db.query("INSERT INTO projects (id, name) VALUES ('dup', 'b')").catch((e: unknown) => e);
      expect(isPgError(err, PgErrorCodes.UNIQUE_VIOLATION)).toBe(true);
    });

    it('delivers NOTIFY to a listener, including one sent inside a transaction', async () => {
      const got: string[] = [];
      const stop = await db.listen('probe_channel', (p) => got.push(p));
      await db.query("SELECT pg_notify('probe_channel', 'one')");
      await db.tx(async (q) => {
        await q.query("SELECT pg_notify('probe_channel', 'two')");
      });
      await expect.poll(() => got, { timeout: 5000 }).toEqual(['one', 'two']);
      await stop();
      // The pool still works after the listener released its connection.
      expect((await db.query('SELECT 1 AS x')).rows[0]).toEqual({ x: 1 });
    });
  });
}
