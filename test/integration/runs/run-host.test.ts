import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb, type Db } from '../../../brokers/db/index.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { freezeFlow, FLOWS } from '../../../actors/runs/flows/index.ts';
import { RunHost, type RunLease } from '../../../actors/runs/run-host.ts';
import { emptyRun } from '../../../actors/runs/run.events.ts';
import type { RunEffect } from '../../../actors/runs/run.machine.ts';
import { createRunStore } from '../../../actors/runs/run.store.ts';
import { DEFAULT_LIMITS } from '../../../actors/runs/run.types.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';

const LEASE = 5000;
const who = {
  approver: 'local:dashboard',
  approver_verified: false,
  surface: 'dashboard',
  on_behalf_of: null,
  agent: null,
};
const log = createRootLogger({ level: 'silent' });
const backends: [string, boolean][] = [
  ['PGlite', false],
  ...(inject('servers').pg ? [['PostgreSQL', true] as [string, boolean]] : []),
];

/**
 * Two nodes' run hosts on one database, time injected (STYLE R13: leases expire because the test says so). What a
 * takeover must guarantee on the host side: the old owner's phase results, approvals and tool calls are fenced, the
 * new owner restarts what was in flight, and effects run in their order.
 */
describe.each(backends)('run host takeover on %s', (_name, real) => {
  let db: Db;
  let pg: TestDatabase | undefined;
  let t = Date.UTC(2026, 10, 22);
  const now = () => new Date(t);
  beforeAll(async () => {
    pg = real ? await createTestDatabase() : undefined;
    db = await openDb({ databaseUrl: pg?.url, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await db.close();
    await pg?.drop();
  });

  /** A node: its host and every effect it was asked to run, with the lease it ran under. */
  function node(name: string, onEffect: (fx: RunEffect) => Promise<unknown> | void = () => undefined) {
    const effects: { fx: RunEffect; lease: RunLease }[] = [];
    const store = createRunStore(db, name, LEASE);
    const host = new RunHost({
      store,
      log,
      now,
      limits: DEFAULT_LIMITS,
      runEffect: (_id, fx, _s, lease) => (effects.push({ fx, lease }), onEffect(fx)),
    });
    return { host, store, effects, types: () => effects.map((e) => e.fx.type) };
  }

  async function startRun(a: ReturnType<typeof node>, id: string) {
    const flow = freezeFlow(FLOWS.mech_v1, {});
    const epoch = await a.store.create(
      { id, project_id: 'p', design_flow: 'mech_v1', version_id: flow.version_id, request: {}, state: emptyRun() },
      now(),
    );
    await a.host.create(id, epoch, { type: 'create', run_id: id, project_id: 'p', flow, patches: [] }, emptyRun());
  }

  async function toOpenGate(a: ReturnType<typeof node>, id: string, ready = true) {
    await a.host.command(id, {
      type: 'phaseResult',
      phase: 'intent',
      attempt: 1,
      ok: true,
      summary: 'ok',
      deliverables: [],
    });
    await a.host.command(id, {
      type: 'gateEvaluated',
      phase: 'intent',
      attempt: 1,
      findings: ready ? [] : [{ kind: 'other', severity: 'error', message: 'x' }],
      ready,
    });
  }

  /** Another transaction locks the run's row until `release`, which runs `finish` (if given) in it and commits. */
  async function holdRow(runId: string, finish?: string) {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const done = db.tx(async (q) => {
      await q.query('SELECT epoch FROM runs WHERE id = $1 FOR UPDATE', [runId]);
      locked();
      await gate;
      if (finish) await q.query(finish, [runId]);
    });
    await isLocked;
    return { release: () => (release(), done) };
  }

  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: { type?: string }) => e.type,
    );

  it('fences the old owner after a takeover: its refusals and phase result are not answered, its executions are aborted, the new owner re-runs the phase', async () => {
    const a = node('A');
    const b = node('B');
    await startRun(a, 'run-1');
    const aLease = a.effects.find((e) => e.fx.type === 'runPhase')!.lease;
    t += LEASE + 1;
    await b.host.touch('run-1');
    await expect
      .poll(() => b.effects.map((e) => e.fx))
      .toEqual([{ type: 'runPhase', phase: 'intent', attempt: 1, notes: [] }]);
    expect(await a.store.owns('run-1', aLease.epoch)).toBe(false);
    // Its stale copy has no open gate: that refusal must not reach the caller as if it were the run's answer.
    expect(
      await code(
        a.host.command('run-1', {
          type: 'decide',
          decision: 'approve',
          reason: '',
          to_phase: '',
          identity: who,
          idem: 'k0',
        }),
      ),
    ).toBe('SERVICE_UNAVAILABLE');
    expect(
      await code(
        a.host.command('run-1', {
          type: 'phaseResult',
          phase: 'intent',
          attempt: 1,
          ok: true,
          summary: 'stale',
          deliverables: [],
        }),
      ),
    ).toBe('SERVICE_UNAVAILABLE');
    expect(aLease.signal.aborted).toBe(true);
    expect(a.host.peek('run-1')).toBeUndefined();
    // The new owner's copy is untouched by the old one being dropped.
    b.host.drop('run-1', aLease.epoch);
    expect(b.host.holds('run-1', b.effects[0].lease.epoch)).toBe(true);
  });

  it.runIf(real)(
    'skips a run whose row an append in flight holds locked, instead of holding up the takeover behind it',
    async () => {
      const a = node('A');
      const b = node('B');
      await startRun(a, 'run-5');
      t += LEASE + 1;
      // A stalled node mid-append: its transaction holds the run's row.
      const stalled = await holdRow('run-5');
      expect(await code(b.host.touch('run-5'))).toBe('SERVICE_UNAVAILABLE');
      await stalled.release();
      await b.host.touch('run-5');
      expect(b.host.peek('run-5')).toBeDefined();
    },
  );

  it.runIf(real)(
    'fences an append that waited on the row lock while another node took the run over: none of its events are stored',
    async () => {
      const a = node('A');
      await startRun(a, 'run-6');
      const held = a.host.peek('run-6')!;
      const epoch = a.effects[0].lease.epoch;
      const count = async () =>
        Number(
          (await db.query<{ n: string }>('SELECT count(*) AS n FROM run_events WHERE run_id = $1', ['run-6'])).rows[0]
            .n,
        );
      const before = await count();
      // Another node claims the run (a new epoch) while A's append waits behind that transaction's row lock.
      const takeover = await holdRow('run-6', `UPDATE runs SET epoch = epoch + 1, owner = 'B' WHERE id = $1`);
      const append = a.store.append(
        'run-6',
        epoch,
        held.seq,
        [{ type: 'RunCancelled', reason: 'stale' } as never],
        held,
        now(),
      );
      await takeover.release();
      await expect(append).rejects.toThrow(/no longer the owner's/);
      expect(await count()).toBe(before);
      expect((await db.query<{ seq: number }>('SELECT seq FROM runs WHERE id = $1', ['run-6'])).rows[0].seq).toBe(
        held.seq,
      );
    },
  );

  it('does not let a node that lost the run commit the drafts of its gate', async () => {
    const a = node('A');
    const b = node('B');
    await startRun(a, 'run-2');
    await toOpenGate(a, 'run-2');
    t += LEASE + 1;
    await b.host.touch('run-2');
    expect(b.types()).toEqual(['gateOpened']); // the open gate is announced again by its new owner
    let commits = 0;
    const decideA = a.host.decideWithCommit(
      'run-2',
      { type: 'decide', decision: 'approve', reason: '', to_phase: '', identity: who, idem: 'k1' },
      async () => {
        commits++;
        return { ok: true, message: '' };
      },
    );
    expect(await code(decideA)).toBe('SERVICE_UNAVAILABLE');
    expect(commits).toBe(0);
    const out = await b.host.decideWithCommit(
      'run-2',
      { type: 'decide', decision: 'approve', reason: '', to_phase: '', identity: who, idem: 'k1' },
      async () => ({ ok: true, message: '' }),
    );
    expect(out.state.decisions.map((d) => d.idem)).toEqual(['k1']);
  });

  it('answers a failed commit as retryable, and the retry with the same key applies it once', async () => {
    const a = node('A');
    await startRun(a, 'run-3');
    await toOpenGate(a, 'run-3');
    const approve = {
      type: 'decide' as const,
      decision: 'approve' as const,
      reason: '',
      to_phase: '',
      identity: who,
      idem: 'k2',
    };
    expect(
      await code(a.host.decideWithCommit('run-3', approve, async () => Promise.reject(new Error('connection reset')))),
    ).toBe('SERVICE_UNAVAILABLE');
    const ok = async () => ({ ok: true, message: '' });
    await a.host.decideWithCommit('run-3', approve, ok);
    const again = await a.host.decideWithCommit('run-3', approve, ok);
    expect(again.state.decisions.filter((d) => d.idem === 'k2')).toHaveLength(1);
  });

  it("starts a retried phase only after the old attempt's drafts are closed, and forgets an ended run", async () => {
    let release!: () => void;
    const closed = new Promise<void>((r) => (release = r));
    const a = node('A', (fx) => (fx.type === 'closeDrafts' ? closed : undefined));
    await startRun(a, 'run-4');
    await toOpenGate(a, 'run-4', false);
    await a.host.command('run-4', {
      type: 'decide',
      decision: 'retry',
      reason: 'again',
      to_phase: '',
      identity: who,
      idem: 'k3',
    });
    expect(a.types()).toEqual(['runPhase', 'evaluateGate', 'gateOpened', 'closeDrafts']);
    release();
    await expect.poll(() => a.types().at(-1)).toBe('runPhase');
    await a.host.command('run-4', { type: 'cancel', reason: 'done' });
    expect(a.host.heldIds()).not.toContain('run-4');
  });
});
