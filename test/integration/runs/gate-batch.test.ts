import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb, type Db } from '../../../brokers/db/index.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { freezeFlow, FLOWS } from '../../../actors/runs/flows/index.ts';
import { RunHost } from '../../../actors/runs/run-host.ts';
import { emptyRun } from '../../../actors/runs/run.events.ts';
import { createRunStore } from '../../../actors/runs/run.store.ts';
import { DEFAULT_LIMITS } from '../../../actors/runs/run.types.ts';
import { draftCloser } from '../../../actors/twin/changesets.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';

const who = { approver: 'p', approver_verified: true, surface: 'dashboard', on_behalf_of: null, agent: null };
const log = createRootLogger({ level: 'silent' });
const backends: [string, boolean][] = [
  ['PGlite', false],
  ...(inject('servers').pg ? [['PostgreSQL', true] as [string, boolean]] : []),
];

/** The database with every statement it is sent counted (a burst costs statements per decision, not time). */
function counting(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const wrapped = Object.create(db) as Db;
  wrapped.query = (sql, params) => {
    statements.push(sql);
    return db.query(sql, params);
  };
  return { db: wrapped, statements };
}
const appends = (s: string[]) => s.filter((q) => q.includes('INSERT INTO run_events'));

/**
 * Gate decisions of different runs that arrive together (issue 13 point 7): their run-log appends are one statement,
 * each run under its own epoch and sequence check, so a run fenced meanwhile gets its own answer and the others commit.
 */
describe.each(backends)('gate decisions of different runs written together on %s', (_name, real) => {
  let base: Db;
  let pg: TestDatabase | undefined;
  const now = () => new Date(Date.UTC(2026, 10, 22));
  beforeAll(async () => {
    pg = real ? await createTestDatabase() : undefined;
    base = await openDb({ databaseUrl: pg?.url, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await base.close();
    await pg?.drop();
  });

  /** A node whose every statement is counted, with `n` runs parked at an open Intent gate. */
  async function parked(prefix: string, n: number) {
    const { db, statements } = counting(base);
    const store = createRunStore(db, 'A', 60_000);
    const host = new RunHost({ store, log, now, limits: DEFAULT_LIMITS, runEffect: () => undefined });
    const flow = freezeFlow(FLOWS.mech_v1, {});
    const ids = Array.from({ length: n }, (_v, i) => `${prefix}-${i}`);
    for (const id of ids) {
      const epoch = await store.create(
        { id, project_id: 'p', design_flow: 'mech_v1', version_id: flow.version_id, request: {}, state: emptyRun() },
        now(),
      );
      await host.create(id, epoch, { type: 'create', run_id: id, project_id: 'p', flow, patches: [] }, emptyRun());
      await host.command(id, {
        type: 'phaseResult',
        phase: 'intent',
        attempt: 1,
        ok: true,
        summary: 'ok',
        deliverables: [],
      });
      await host.command(id, { type: 'gateEvaluated', phase: 'intent', attempt: 1, findings: [], ready: true });
    }
    statements.length = 0;
    const reject = (id: string, idem = `k-${id}`) =>
      host.decideWithCommit(
        id,
        { type: 'decide', decision: 'reject', reason: 'no', to_phase: '', identity: who, idem },
        async () => ({ ok: true, message: '' }),
      );
    return { ids, host, statements, reject };
  }

  const logged = async (id: string) =>
    (
      await base.query<{ type: string }>(
        `SELECT type FROM run_events WHERE run_id = $1 AND type IN ('GateDecided', 'RunEnded') ORDER BY seq`,
        [id],
      )
    ).rows.map((r) => r.type);

  it('N concurrent rejects of different runs append in one statement; a fenced run gets its own error, the others commit', async () => {
    const { ids, statements, reject } = await parked('b1', 12);
    // Another node took run 5 over (a new epoch): this node's copy is stale.
    await base.query(`UPDATE runs SET epoch = epoch + 1, owner = 'B' WHERE id = $1`, [ids[5]]);
    const out = await Promise.allSettled([...ids.map((id) => reject(id)), reject(ids[0], 'again')]);
    expect(appends(statements)).toHaveLength(1);
    for (const [i, id] of ids.entries()) {
      if (i === 5) {
        expect(out[i]).toMatchObject({ status: 'rejected', reason: { type: 'SERVICE_UNAVAILABLE' } });
        expect((out[i] as PromiseRejectedResult).reason).toBeInstanceOf(ActorError);
        expect(await logged(id)).toEqual([]);
      } else {
        expect(out[i]).toMatchObject({ status: 'fulfilled', value: { state: { status: 'rejected' } } });
        expect(await logged(id)).toEqual(['GateDecided', 'RunEnded']);
      }
    }
    // The second decision on run 0 (queued behind the first in its mailbox) finds the run ended: a refusal of its own.
    expect(out[ids.length]).toMatchObject({ status: 'fulfilled', value: { refusal: { code: 'CONFLICT' } } });
    const { rows } = await base.query<{ id: string; status: string; seq: number }>(
      'SELECT id, status, seq FROM runs WHERE id = ANY($1::text[]) ORDER BY id',
      [ids],
    );
    expect(rows.filter((r) => r.status === 'rejected').map((r) => r.id)).toEqual(
      ids.filter((_id, i) => i !== 5).sort(),
    );
  });

  it.runIf(real)(
    'a run whose row another transaction holds is appended alone once it is free; the others do not wait for it',
    async () => {
      const { ids, statements, reject } = await parked('b2', 6);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const held = base.tx(async (q) => {
        await q.query('SELECT epoch FROM runs WHERE id = $1 FOR UPDATE', [ids[2]]);
        locked();
        await gate;
      });
      await isLocked;
      const slow = reject(ids[2]);
      const others = await Promise.all(ids.filter((_id, i) => i !== 2).map((id) => reject(id)));
      expect(others.map((o) => o.state.status)).toEqual(Array(5).fill('rejected'));
      expect(await logged(ids[2])).toEqual([]);
      release();
      await held;
      expect((await slow).state.status).toBe('rejected');
      expect(await logged(ids[2])).toEqual(['GateDecided', 'RunEnded']);
      expect(appends(statements)).toHaveLength(2); // the batch, then the locked run alone
    },
  );

  it('the drafts of runs ended in one turn close in one statement, each with its own status and count', async () => {
    const runs = ['c-0', 'c-1', 'c-2'];
    for (const [i, run] of runs.entries())
      for (let k = 0; k <= i; k++)
        await base.query(
          `INSERT INTO twin_nodes (id, project_id, node_type, name, run_id, revision_status) VALUES (gen_random_uuid(), 'p', 'note', 'n', $1, 'draft')`,
          [run],
        );
    const { db, statements } = counting(base);
    const close = draftCloser(() => db);
    const closed = await Promise.all([
      close({ run_id: 'c-0', status: 'rejected', reason: 'no', now: now() }),
      close({ run_id: 'c-1', status: 'abandoned', reason: 'retry', now: now() }),
      close({ run_id: 'c-2', status: 'rejected', reason: 'no', now: now() }),
      close({ run_id: 'c-9', status: 'rejected', reason: 'no', now: now() }),
      close({ run_id: 'c-0', status: 'rejected', reason: 'twice', now: now() }),
    ]);
    expect(closed).toEqual([1, 2, 3, 0, 0]);
    expect(statements.filter((q) => q.includes('UPDATE twin_nodes'))).toHaveLength(1);
    const { rows } = await base.query<{ run_id: string; revision_status: string; status_reason: string }>(
      `SELECT DISTINCT run_id, revision_status, status_reason FROM twin_nodes WHERE run_id = ANY($1::text[]) ORDER BY run_id`,
      [runs],
    );
    expect(rows).toEqual([
      { run_id: 'c-0', revision_status: 'rejected', status_reason: 'no' },
      { run_id: 'c-1', revision_status: 'abandoned', status_reason: 'retry' },
      { run_id: 'c-2', revision_status: 'rejected', status_reason: 'no' },
    ]);
  });
});
