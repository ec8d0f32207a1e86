// Twin writes of a design-flow phase execution are fenced by the run's ownership epoch (actors/twin/run-fence.ts):
// the runs actor passes the epoch it started the execution under (serviceCaller), the twin adapter hands it on as the
// writer's run_epoch, and the twin writes only while the run still carries it, as the runs actor's SQL function
// run_fence_epoch (migration 0042) answers inside the write's transaction.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceCaller } from '../../../actors/runs/executor.ts';
import { ToolResultSchema, type ToolResult } from '../../../contracts/tool-result.ts';
import type { PhaseDef } from '../../../contracts/flow-defs.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { dbBackends, type TestDatabase } from '../../support/pg.ts';

const P = 'p-fence';

for (const backend of dbBackends('twin_fence')) {
  describe.runIf(backend.enabled)(`run-fenced twin writes on ${backend.name}`, () => {
    let t: TestNode;
    let db: TestDatabase | undefined;
    beforeAll(async () => {
      db = await backend.database();
      t = await startTestNode({ roles: 'twin,adapter:twin', env: db ? { SERVICE_DATABASE_URL: db.url } : {} });
    });
    afterAll(async () => {
      await t?.stop();
      await db?.drop();
    });

    const sql = async (text: string, params: unknown[] = []) =>
      (await (await t.node.infra.db()).query(text, params)).rows;
    const addRun = (id: string, epoch: number) =>
      sql(
        `INSERT INTO runs (id, project_id, design_flow, version_id, status, epoch, state) VALUES ($1, $2, 'mech_v1', 'v1', 'running', $3, '{}')`,
        [id, P, epoch],
      );
    const caller = (runId: string, epoch?: number) =>
      serviceCaller({ run_id: runId, project_id: P, phase: { id: 'concept' } as PhaseDef }, epoch);
    const invoke = async (
      tool: string,
      args: Record<string, unknown>,
      who: Record<string, unknown>,
    ): Promise<ToolResult> =>
      ToolResultSchema.parse(
        await t.node.broker.call('adapters.twin.invoke', {
          tool_id: `twin.${tool}`,
          arguments: args,
          call_id: crypto.randomUUID(),
          timeout_ms: 10_000,
          caller: who,
        }),
      );
    const errorOf = (r: ToolResult) => (r.status === 'error' ? JSON.stringify(r.error) : '');
    const constraintSet = (name: string) => ({ project_id: P, name, constraints: [{ metric: 'mass_kg', limit: 2 }] });
    const stored = async (name: string) =>
      (await sql('SELECT revision_status, run_id FROM twin_nodes WHERE project_id = $1 AND name = $2', [P, name])) as {
        revision_status: string | null;
        run_id: string;
      }[];

    it('passes the execution epoch from the service caller to the writer', () => {
      expect(caller('run-x', 7)).toMatchObject({ kind: 'service', run_id: 'run-x', run_epoch: 7, phase: 'concept' });
      expect(caller('run-x')).not.toHaveProperty('run_epoch');
    });

    it('writes a draft while the run carries the epoch, refuses it once the run moved on, and writes nothing then', async () => {
      await addRun('run-fence-a', 3);
      const ok = await invoke('record_constraint_set', constraintSet('Mass budget'), caller('run-fence-a', 3));
      expect(ok.status).toBe('success');
      expect(await stored('Mass budget')).toEqual([{ revision_status: 'draft', run_id: 'run-fence-a' }]);

      await sql('UPDATE runs SET epoch = 4 WHERE id = $1', ['run-fence-a']); // another node took the run over
      const late = await invoke('record_constraint_set', constraintSet('Stiffness budget'), caller('run-fence-a', 3));
      expect(late.status).toBe('error');
      expect(errorOf(late)).toContain(
        'run run-fence-a is held under epoch 4 now; this write came from its execution under epoch 3',
      );
      expect(await stored('Stiffness budget')).toEqual([]);
      const record = await invoke(
        'record_decision',
        { project_id: P, title: 'Use 6061', decision: 'aluminium' },
        caller('run-fence-a', 3),
      );
      expect(record.status).toBe('error');
      expect(await stored('Use 6061')).toEqual([]);
      // The new owner's execution writes.
      expect(
        (
          await invoke(
            'record_decision',
            { project_id: P, title: 'Use 7075', decision: 'aluminium' },
            caller('run-fence-a', 4),
          )
        ).status,
      ).toBe('success');
    });

    it('refuses an epoch for a run that does not exist, and never fences a write that carries no epoch', async () => {
      const ghost = await invoke('record_constraint_set', constraintSet('Ghost budget'), caller('run-none', 1));
      expect(errorOf(ghost)).toContain('run run-none does not exist');
      expect(await stored('Ghost budget')).toEqual([]);
      const unfenced = await invoke('record_constraint_set', constraintSet('Agent budget'), {
        kind: 'remote',
        transport: 'http',
        run_id: 'run-none',
      });
      expect(unfenced.status).toBe('success');
    });

    it("checks the epoch through the runs actor's function: run_fence_epoch answers the run's epoch, null for no run", async () => {
      await addRun('run-fence-f', 9);
      expect(await sql('SELECT run_fence_epoch($1) AS epoch', ['run-fence-f'])).toEqual([{ epoch: '9' }]);
      expect(await sql('SELECT run_fence_epoch($1) AS epoch', ['run-none'])).toEqual([{ epoch: null }]);
    });

    it.runIf(backend.name === 'PostgreSQL')(
      'orders a write after a takeover in flight: it waits for the takeover and is refused',
      async () => {
        await addRun('run-fence-b', 1);
        const other = new pg.Client({ connectionString: db!.url });
        await other.connect();
        try {
          await other.query('BEGIN');
          await other.query('UPDATE runs SET epoch = epoch + 1 WHERE id = $1', ['run-fence-b']); // the takeover, not committed yet
          let answered = false;
          const write = invoke(
            'record_constraint_set',
            constraintSet('Racing budget'),
            caller('run-fence-b', 1),
          ).finally(() => (answered = true));
          // The write's transaction waits on the takeover's row lock inside the runs actor's fence function (the
          // database reports the wait), and it has not answered.
          const waiting = async () =>
            (
              await sql(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%run_fence_epoch%'`,
              )
            )[0].n;
          await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(1);
          expect(answered).toBe(false);
          await other.query('COMMIT');
          const out = await write;
          expect(out.status).toBe('error');
          expect(errorOf(out)).toContain('is held under epoch 2 now');
          expect(await stored('Racing budget')).toEqual([]);
        } finally {
          await other.end();
        }
      },
    );
  });
}
