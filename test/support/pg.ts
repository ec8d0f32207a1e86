import crypto from 'node:crypto';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { createPgDb, createPgliteDb, type Db } from '../../brokers/db/index.ts';
import { TEST_SERVERS } from './servers.ts';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty database of its own on the real server, so test files never share state. */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_SERVERS.pgUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_SERVERS.pgUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: TEST_SERVERS.pgUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Opens the database port under test; `dispose` closes it (and drops its database). */
export type MakeDb = () => Promise<{ db: Db; dispose(): Promise<void> }>;

/**
 * Declares a suite once per backend: the embedded PGlite, and (inside "real PostgreSQL", when the server is up) a
 * database of its own on the real server.
 */
export function describeEachDb(suite: (backend: string, make: MakeDb) => void): void {
  suite('PGlite (embedded)', async () => {
    const db = await createPgliteDb('memory://');
    return { db, dispose: () => db.close() };
  });
  describe.runIf(inject('servers').pg)('real PostgreSQL', () => {
    suite('PostgreSQL', async () => {
      const tdb = await createTestDatabase();
      const db = createPgDb(tdb.url);
      return {
        db,
        async dispose() {
          await db.close();
          await tdb.drop();
        },
      };
    });
  });
}

/** A backend a node suite runs on; `database` makes its database (none: the node's embedded PGlite). */
export interface DbBackend {
  name: string;
  enabled: boolean;
  database(): Promise<TestDatabase | undefined>;
}

/** The embedded PGlite, and a database of its own (named `<prefix>_…`) on the real PostgreSQL server when it is up. */
export function dbBackends(prefix: string): DbBackend[] {
  return [
    { name: 'PGlite (embedded)', enabled: true, database: async () => undefined },
    { name: 'PostgreSQL', enabled: inject('servers').pg, database: () => createTestDatabase(prefix) },
  ];
}
