import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

/** Folder of the versioned migrations: `NNNN_name.sql`, applied in order, each exactly once. */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Arbitrary fixed key: every process that migrates the same database serialises on it. */
const MIGRATION_LOCK_KEY = 7_220_451_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await fs.readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await fs.readFile(path.join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        sql,
        checksum: crypto.createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so several processes starting at once
 * migrate once. An applied migration whose file changed stops the start: applied SQL is never edited.
 * Returns the versions applied now.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<number[]> {
  const all = migrations ?? (await readMigrations());
  return db.tx(async (q) => {
    // Migrations are exempt from the service's statement timeout: waiting on another process's migration, or a long
    // ALTER on a big table, is not a hung statement.
    await q.query('SET LOCAL statement_timeout = 0');
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await q.query<{ version: number; checksum: string; name: string }>(
      'SELECT version, checksum, name FROM schema_migrations',
    );
    const applied = new Map(rows.map((r) => [r.version, r]));
    const done: number[] = [];
    for (const m of all) {
      const prior = applied.get(m.version);
      if (prior) {
        if (prior.checksum !== m.checksum) {
          throw new Error(
            `migration ${m.version}_${m.name} was changed after it was applied; add a new migration instead`,
          );
        }
        continue;
      }
      await q.query(m.sql);
      await q.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        m.checksum,
      ]);
      done.push(m.version);
    }
    return done;
  });
}
