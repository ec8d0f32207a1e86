import { describe, inject } from 'vitest';
import { createPgDb, createPgliteDb } from '../../brokers/db/index.ts';
import { createTestDatabase } from '../support/pg.ts';
import { describeDb } from '../contracts/db.contract.ts';

describeDb('PGlite (embedded)', async () => {
  const db = await createPgliteDb('memory://');
  return { db, dispose: () => db.close() };
});

describe.runIf(inject('servers').pg)('real PostgreSQL', () => {
  describeDb('PostgreSQL', async () => {
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
