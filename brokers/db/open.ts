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
}

/** Opens the configured backend and applies pending migrations before anyone queries it. */
export async function openDb(opts: OpenDbOptions): Promise<Db> {
  const pgdata = opts.dataDir.startsWith('memory://') ? 'memory://' : path.join(opts.dataDir, 'pgdata');
  if (!opts.databaseUrl) await prepareNewPgliteDir(pgdata);
  const db = opts.databaseUrl ? createPgDb(opts.databaseUrl, opts.poolMax) : await createPgliteDb(pgdata);
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
