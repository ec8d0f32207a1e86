import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWriter } from '../../brokers/db/batch-write.ts';
import { createPgliteDb, type Db, type Queryable } from '../../brokers/db/index.ts';

/** Counts the statements sent through it (the cost a burst of decisions pays), not time. */
function counting(db: Db): Queryable & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    query: (sql, params) => {
      statements.push(sql);
      return db.query(sql, params);
    },
  };
}

interface Decision {
  id: string;
  by: string;
}

describe('batchWriter', () => {
  let db: Db;
  beforeAll(async () => {
    db = await createPgliteDb('memory://');
  });
  afterAll(() => db.close());

  /** A guarded decision writer over `items`: only pending rows match, each row comes back with who decided it. */
  async function setup(n: number, decided: number[] = []) {
    await db.query('DROP TABLE IF EXISTS items');
    await db.query(`CREATE TABLE items (id text PRIMARY KEY, status text NOT NULL, decided_by text)`);
    await db.query(`INSERT INTO items SELECT 'i' || g, 'pending', NULL FROM generate_series(0, $1::int - 1) g`, [n]);
    for (const i of decided)
      await db.query(`UPDATE items SET status = 'done', decided_by = 'earlier' WHERE id = $1`, [`i${i}`]);
    const q = counting(db);
    const decide = batchWriter<Decision, { id: string; decided_by: string }>({
      group: () => 'decide',
      key: (d) => d.id,
      async write(_g, ds) {
        const { rows } = await q.query<{ id: string; decided_by: string }>(
          `UPDATE items t SET status = 'done', decided_by = v.by FROM unnest($1::text[], $2::text[]) AS v(id, by)
           WHERE t.id = v.id AND t.status = 'pending' RETURNING t.id, t.decided_by`,
          [ds.map((d) => d.id), ds.map((d) => d.by)],
        );
        return new Map(rows.map((r) => [r.id, r]));
      },
    });
    return { q, decide };
  }

  it('writes N concurrent decisions with one statement, each caller getting its own row', async () => {
    const { q, decide } = await setup(50);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_v, i) => decide({ id: `i${i}`, by: `person ${i}` })),
    );
    expect(q.statements).toHaveLength(1);
    answers.forEach((a, i) => expect(a).toEqual({ id: `i${i}`, decided_by: `person ${i}` }));
  });

  it('refuses only the caller whose row the guard did not let through', async () => {
    const { q, decide } = await setup(10, [3]);
    const answers = await Promise.all(Array.from({ length: 10 }, (_v, i) => decide({ id: `i${i}`, by: `p${i}` })));
    expect(q.statements).toHaveLength(1);
    expect(answers[3]).toBeUndefined();
    expect(answers.filter((a) => a === undefined)).toHaveLength(1);
    const { rows } = await db.query<{ decided_by: string }>(`SELECT decided_by FROM items WHERE id = 'i3'`);
    expect(rows[0].decided_by).toBe('earlier');
  });

  it('of concurrent decisions on one row, exactly one wins, in one statement', async () => {
    const { q, decide } = await setup(1);
    const answers = await Promise.all(Array.from({ length: 100 }, (_v, i) => decide({ id: 'i0', by: `p${i}` })));
    expect(q.statements).toHaveLength(1);
    const won = answers.filter((a) => a !== undefined);
    expect(won).toEqual([{ id: 'i0', decided_by: 'p0' }]);
    // A later turn is a new statement, and the guard refuses it.
    expect(await decide({ id: 'i0', by: 'late' })).toBeUndefined();
    expect(q.statements).toHaveLength(2);
  });

  it('writes each group with its own statement, and a failed statement fails only its own group', async () => {
    const calls: string[] = [];
    const write = batchWriter<{ g: string; id: string }, string>({
      group: (x) => x.g,
      key: (x) => x.id,
      async write(g, xs) {
        calls.push(g);
        if (g === 'bad') throw new Error('statement failed');
        return new Map(xs.map((x) => [x.id, `${g}/${x.id}`]));
      },
    });
    const out = await Promise.allSettled([
      write({ g: 'a', id: '1' }),
      write({ g: 'bad', id: '2' }),
      write({ g: 'a', id: '3' }),
      write({ g: 'bad', id: '2' }),
    ]);
    expect(calls.sort()).toEqual(['a', 'bad']);
    expect(out[0]).toEqual({ status: 'fulfilled', value: 'a/1' });
    expect(out[2]).toEqual({ status: 'fulfilled', value: 'a/3' });
    expect(out[1]).toMatchObject({ status: 'rejected', reason: new Error('statement failed') });
    expect(out[3]).toMatchObject({ status: 'rejected' });
  });
});
