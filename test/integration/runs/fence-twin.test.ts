// The twin's side of decision 0142 on both backends: the run's own commit and close carry the owner's epoch (a stale
// one is refused with nothing written) and touch only the drafts of the phase and attempt they name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { dbBackends, type TestDatabase } from '../../support/pg.ts';

const P = 'p-fence-twin';

for (const backend of dbBackends('fence_twin')) {
  describe.runIf(backend.enabled)(`the run's own twin writes on ${backend.name}`, () => {
    let t: TestNode;
    let db: TestDatabase | undefined;
    beforeAll(async () => {
      db = await backend.database();
      t = await startTestNode({ roles: 'twin', env: db ? { SERVICE_DATABASE_URL: db.url } : {} });
    });
    afterAll(async () => {
      await t?.stop();
      await db?.drop();
    });

    const sql = async (text: string, params: unknown[] = []) =>
      (await (await t.node.infra.db()).query(text, params)).rows;
    const draft = (run: string, name: string, phase: string, attempt: number) =>
      call(t.node.broker, T.writeDefinition, {
        project_id: P,
        item_type: 'constraint_set',
        name,
        properties: {},
        writer: { run_id: run, run_epoch: 3, phase, attempt },
      });
    const statuses = async (run: string) =>
      Object.fromEntries(
        (
          (await sql(`SELECT name, phase, attempt, revision_status FROM twin_nodes WHERE run_id = $1`, [run])) as {
            name: string;
            phase: string;
            attempt: number;
            revision_status: string;
          }[]
        ).map((r) => [`${r.name}/${r.phase}/${r.attempt}`, r.revision_status]),
      );
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: { type?: string; message: string }) => ({ type: e.type, message: e.message }),
      );

    it('refuses a stale epoch with nothing changed, and closes and commits only the drafts named', async () => {
      const run = 'run-fence-twin';
      await sql(
        `INSERT INTO runs (id, project_id, design_flow, version_id, status, epoch, state) VALUES ($1, $2, 'mech_v1', 'v1', 'running', 3, '{}')`,
        [run, P],
      );
      await draft(run, 'A', 'p1', 1);
      await draft(run, 'B', 'p1', 2);
      await draft(run, 'C', 'p2', 1);
      const before = await statuses(run);
      expect(before).toEqual({ 'A/p1/1': 'draft', 'B/p1/2': 'draft', 'C/p2/1': 'draft' });

      const close = { run_id: run, status: 'abandoned' as const, reason: 'retry of p1' };
      expect(await refused(call(t.node.broker, T.closeDrafts, { ...close, run_epoch: 2 }))).toEqual({
        type: 'CONFLICT',
        message: expect.stringContaining(
          'is held under epoch 3 now; this close of its drafts came from its owner under epoch 2',
        ),
      });
      const gate = { run_id: run, project_id: P, gate_id: `${run}:p1:2`, gate_name: 'G', approver: 'x', reason: '' };
      expect(
        await refused(call(t.node.broker, T.commitChangeSet, { ...gate, run_epoch: 2, phase: 'p1', attempt: 2 })),
      ).toEqual({
        type: 'CONFLICT',
        message: expect.stringContaining('is held under epoch 3 now; this write came from its execution under epoch 2'),
      });
      expect(await statuses(run)).toEqual(before);

      // A retry of p1 (attempt 2 starts): only p1's attempt-1 draft closes.
      expect(
        await call(t.node.broker, T.closeDrafts, { ...close, run_epoch: 3, drafts: [{ phase: 'p1', before: 2 }] }),
      ).toEqual({ closed: 1 });
      expect(await statuses(run)).toEqual({ 'A/p1/1': 'abandoned', 'B/p1/2': 'draft', 'C/p2/1': 'draft' });
      expect(await sql('SELECT status FROM twin_change_sets WHERE id = $1', [run])).toEqual([{ status: 'open' }]);

      // p1's gate (attempt 2) commits its own draft only; p2's waits for its gate.
      const out = await call(t.node.broker, T.commitChangeSet, { ...gate, run_epoch: 3, phase: 'p1', attempt: 2 });
      expect(out.status === 'committed' && out.committed.map((c) => c.key)).toEqual([expect.stringContaining('B')]);
      expect(await statuses(run)).toEqual({ 'A/p1/1': 'abandoned', 'B/p1/2': 'approved', 'C/p2/1': 'draft' });

      // The run ends: every draft left closes, and the change set with them.
      expect(
        await call(t.node.broker, T.closeDrafts, { run_id: run, status: 'rejected', reason: 'no', run_epoch: 3 }),
      ).toEqual({ closed: 1 });
      expect(await statuses(run)).toEqual({ 'A/p1/1': 'abandoned', 'B/p1/2': 'approved', 'C/p2/1': 'rejected' });
      expect(await sql('SELECT status FROM twin_change_sets WHERE id = $1', [run])).toEqual([{ status: 'rejected' }]);
    });
  });
}
