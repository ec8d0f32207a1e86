import { describe, expect, it } from 'vitest';
import { migrate, readMigrations, type Db } from '../../../brokers/db/index.ts';
import { describeEachDb } from '../../support/pg.ts';

/**
 * Migration 0100 (decision 0100, a run's items are its own) on a twin written before it: an item belongs to the run of
 * its first revision, an item a person created belongs to no run, and two runs may then own items of one name.
 */
async function node(db: Db, id: string, key: string, revision: number, runId: string | null, at: string) {
  await db.query(
    `INSERT INTO twin_nodes (id, project_id, node_type, name, item_key, revision, revision_status, run_id, created_at, updated_at)
     VALUES ($1, 'P', 'cad_model', 'Bracket', $2, $3, $4, $5, $6, $6)`,
    [id, key, revision, runId ? 'approved' : 'committed', runId, at],
  );
}

describeEachDb((backend, make) => {
  describe(`migration 0100 on ${backend}`, () => {
    it('gives each item the run of its first revision, none to a person’s, and lets two runs own one name', async () => {
      const { db, dispose } = await make();
      try {
        const all = await readMigrations();
        await migrate(
          db,
          all.filter((m) => m.version < 100),
        );
        await db.query(
          `INSERT INTO twin_items (key, project_id, item_type, name, head_revision) VALUES
             ('CAD-BRACKET-RUN1', 'P', 'cad_model', 'Bracket', 2), ('CAD-PART-PERS', 'P', 'cad_model', 'Part', 1)`,
        );
        // Run 1 wrote @1, a second run revised it (@2, as before the change): the owner is still run 1.
        await node(db, '00000000-0000-4000-8000-000000000001', 'CAD-BRACKET-RUN1', 1, 'run_1', '2026-01-01T00:00:00Z');
        await node(db, '00000000-0000-4000-8000-000000000002', 'CAD-BRACKET-RUN1', 2, 'run_2', '2026-01-02T00:00:00Z');
        await node(db, '00000000-0000-4000-8000-000000000003', 'CAD-PART-PERS', 1, null, '2026-01-01T00:00:00Z');

        await migrate(db, all);
        const { rows } = await db.query<{ key: string; origin_run_id: string | null }>(
          'SELECT key, origin_run_id FROM twin_items ORDER BY key',
        );
        expect(rows).toEqual([
          { key: 'CAD-BRACKET-RUN1', origin_run_id: 'run_1' },
          { key: 'CAD-PART-PERS', origin_run_id: null },
        ]);
        await db.query(
          `INSERT INTO twin_items (key, project_id, item_type, name, origin_run_id) VALUES ('CAD-BRACKET-RUN3', 'P', 'cad_model', 'Bracket', 'run_3')`,
        );
        // Within one owner the name is still one item.
        await expect(
          db.query(
            `INSERT INTO twin_items (key, project_id, item_type, name, origin_run_id) VALUES ('CAD-BRACKET-DUP', 'P', 'cad_model', 'Bracket', 'run_3')`,
          ),
        ).rejects.toThrow(/unique|duplicate/i);
      } finally {
        await dispose();
      }
      // A fresh embedded database runs every migration (about 20 s on a loaded 2-core machine): a generous deadline.
    }, 300_000);
  });
});
