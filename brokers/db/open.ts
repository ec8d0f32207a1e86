import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { createPgDb } from './pg.ts';
import { createPgliteDb } from './pglite.ts';
import { prepareNewPgliteDir } from './prepare.ts';

export interface OpenDbOptions {
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  poolMax?: number;
  /** PostgreSQL only (PGlite is one process: a pause pauses its database too): `statement_timeout`, 0 = none. */
  statementTimeoutMs?: number;
  /** PostgreSQL only: `idle_in_transaction_session_timeout`, 0 = none (decision 0142). */
  idleTxTimeoutMs?: number;
}

/**
 * A migrated in-memory database to start from, named by `TEST_PGLITE_TEMPLATE` (a gzipped PGlite data folder). Only the
 * test suite's global setup sets it (test/global-setup.ts): every test node's memory:// database then loads it instead
 * of running initdb and every migration (about 4 s against 15 s on a loaded 2-core machine); the migrations still run
 * after, so a template behind the code is brought up to date. Unset, unreadable: an empty database as always.
 */
async function memoryTemplate(): Promise<Blob | undefined> {
  const file = process.env.TEST_PGLITE_TEMPLATE;
  if (!file) return undefined;
  try {
    return new Blob([await fs.readFile(file)]);
  } catch {
    return undefined;
  }
}

/** Opens the configured backend and applies pending migrations before anyone queries it. */
export async function openDb(opts: OpenDbOptions): Promise<Db> {
  const pgdata = opts.dataDir.startsWith('memory://') ? 'memory://' : path.join(opts.dataDir, 'pgdata');
  if (!opts.databaseUrl) await prepareNewPgliteDir(pgdata);
  const db = opts.databaseUrl
    ? createPgDb(opts.databaseUrl, opts.poolMax, {
        statementTimeoutMs: opts.statementTimeoutMs,
        idleTxTimeoutMs: opts.idleTxTimeoutMs,
      })
    : await createPgliteDb(pgdata, pgdata === 'memory://' ? await memoryTemplate() : undefined);
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
