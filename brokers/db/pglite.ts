import fs from 'node:fs/promises';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { PgDb } from './pg.ts';

/**
 * The embedded default: PGlite (PostgreSQL in WASM) in a local folder, driven through pg's own client
 * (a one-connection pool), so stores see exactly the types and errors of a real server.
 * `listen` goes to PGlite directly: a pooled LISTEN would hold the single connection (notes/runtime.md).
 */
export class PgliteDb extends PgDb {
  readonly pglite: PGlite;

  constructor(pglite: PGlite) {
    super(new pg.Pool(createPgConfig(pglite) as unknown as pg.PoolConfig), 'pglite');
    this.pglite = pglite;
  }

  override async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const unsub = await this.pglite.listen(channel, onPayload);
    return async () => unsub();
  }

  override async close(): Promise<void> {
    await super.close();
    await this.pglite.close();
  }
}

/**
 * PostgreSQL's default shared_buffers (128 MB) is zeroed at start inside the wasm heap, which never shrinks: the embedded
 * node would hold it resident from its first second. 16 MB takes about 100 MB off an idle all-roles node (bench:memory,
 * reopening a data dir: 395 -> 272-316 MB); one laptop's working set fits, and a deployment that outgrows it runs on
 * PostgreSQL.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * Opens (creating if needed) the embedded database in `dataDir`; `memory://` keeps it in memory, started from
 * `template` (a gzipped data folder from `dumpDataDir`) when one is given instead of an empty initdb.
 */
export async function createPgliteDb(dataDir: string, template?: Blob): Promise<PgliteDb> {
  if (!dataDir.startsWith('memory://')) await fs.mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...(template && dataDir.startsWith('memory://') ? { loadDataDir: template } : {}),
  });
  return new PgliteDb(pglite);
}
