import { describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../../brokers/db/index.ts';
import { gateEvidence } from '../../../actors/twin/run-reads.ts';
import { describeEachDb } from '../../support/pg.ts';

/**
 * A run's verification evidence is its own (decision 0100, with decision 0080's one evaluator): the latest test
 * result stating values since the run's geometry counts when the run or a person (no run) recorded it, never when
 * another run of the project did.
 */
let seq = 0;
async function node(db: Db, n: { type: string; run: string | null; at: string; key?: string; props: object }) {
  const id = `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
  await db.query(
    `INSERT INTO twin_nodes (id, project_id, node_type, name, properties, item_key, revision, revision_status, run_id, created_at, updated_at)
     VALUES ($1, 'P', $2, $2, $3, $4, $5, $6, $7, $8, $8)`,
    [id, n.type, JSON.stringify(n.props), n.key ?? null, n.key ? 1 : null, n.key ? 'approved' : null, n.run, n.at],
  );
  return id;
}

describeEachDb((backend, make) => {
  describe(`run verification evidence on ${backend}`, () => {
    it("never takes another run's test result; takes a person's, and the run's own when newer", async () => {
      const { db, dispose } = await make();
      try {
        await migrate(db);
        const constraints = [{ id: 'C1', metric: 'mass_kg', operator: '<=', limit: 1, unit: 'kg', severity: 'error' }];
        await node(db, {
          type: 'constraint_set',
          run: 'run_a',
          at: '2026-01-01T00:00:00Z',
          key: 'CS-A',
          props: { constraints },
        });
        await node(db, { type: 'cad_model', run: 'run_a', at: '2026-01-01T00:00:01Z', key: 'CAD-A', props: {} });
        const values = { values: { mass_kg: 0.5 } };
        await node(db, { type: 'test_result', run: 'run_b', at: '2026-01-02T00:00:00Z', props: values });
        expect((await gateEvidence(db, 'P', 'run_a')).verification).toBeNull();

        const bench = await node(db, { type: 'test_result', run: null, at: '2026-01-03T00:00:00Z', props: values });
        expect((await gateEvidence(db, 'P', 'run_a')).verification?.node_id).toBe(bench);
        await node(db, { type: 'test_result', run: 'run_b', at: '2026-01-04T00:00:00Z', props: values });
        expect((await gateEvidence(db, 'P', 'run_a', false)).verification?.node_id).toBe(bench);
        const own = await node(db, { type: 'test_result', run: 'run_a', at: '2026-01-05T00:00:00Z', props: values });
        expect((await gateEvidence(db, 'P', 'run_a')).verification?.node_id).toBe(own);
      } finally {
        await dispose();
      }
      // A fresh embedded database runs every migration (about 20 s on a loaded 2-core machine): a generous deadline.
    }, 300_000);
  });
});
