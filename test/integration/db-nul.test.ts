import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorError } from '../../brokers/errors.ts';
import type { Db } from '../../brokers/db/index.ts';
import { describeEachDb } from '../support/pg.ts';

// The last line of issue finding 5: whatever a caller forgot to check, a NUL byte in a bound parameter never reaches
// PostgreSQL (which raises 22021 and became a 500); the database port refuses it with the catalogue's 422.
describeEachDb((backend, make) => {
  describe(`a NUL in a query parameter on ${backend}`, () => {
    let db: Db;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      ({ db, dispose } = await make());
    });
    afterAll(async () => {
      await dispose();
    });

    const refused = async (p: Promise<unknown>, where: string) => {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ActorError);
      expect((err as ActorError).type).toBe('VALIDATION_FAILED');
      expect((err as ActorError).message).toContain(where);
      expect((err as ActorError).message).not.toMatch(/22021|invalid byte sequence/);
    };

    it('is refused in a string, an array element and a JSON value, on query and in a transaction', async () => {
      await refused(db.query('SELECT $1::text AS v', ['a\u0000b']), '$1');
      await refused(db.query('SELECT $2::text[] AS v', [1, ['ok', 'x\u0000']]), '$2');
      await refused(db.query('SELECT $1::jsonb AS v', [{ name: { deep: '\u0000' } }]), '$1');
      await refused(
        db.tx((q) => q.query('SELECT $1::text AS v', ['\u0000'])),
        '$1',
      );
    });

    it('lets every other string through unchanged', async () => {
      const { rows } = await db.query<{ v: string }>('SELECT $1::text AS v', ['tab\there \u2028 é \\0 %00']);
      expect(rows[0].v).toBe('tab\there \u2028 é \\0 %00');
    });
  });
});
