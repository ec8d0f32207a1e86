import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../../brokers/db/index.ts';
import { freezeFlow, FLOWS } from '../../../actors/runs/flows/index.ts';
import { RunHost, type RunLease } from '../../../actors/runs/run-host.ts';
import { emptyRun } from '../../../actors/runs/run.events.ts';
import type { RunEffect } from '../../../actors/runs/run.machine.ts';
import { createRunStore } from '../../../actors/runs/run.store.ts';
import { DEFAULT_LIMITS } from '../../../actors/runs/run.types.ts';

const LEASE = 5000;

/**
 * A node that stood still past its lease (SIGSTOP, a blocked event loop) says so at its next renewal, and says again
 * when the work it had in flight from before has ended: the reliability test waits for that second line instead of
 * waiting for the database to look quiet. Time injected (STYLE R13).
 */
describe('run host after a stall', () => {
  let db: Db;
  let t = Date.UTC(2026, 10, 22);
  const now = () => new Date(t);
  beforeAll(async () => {
    db = await openDb({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await db.close();
  });

  /** A node whose warn lines are kept; its phase executions run until the test lets them finish. */
  function node(name: string) {
    const lines: { msg: string; [k: string]: unknown }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const finish: (() => void)[] = [];
    const effects: { fx: RunEffect; lease: RunLease }[] = [];
    const store = createRunStore(db, name, LEASE);
    const host = new RunHost({
      store,
      log: pino({ level: 'warn' }, sink),
      now,
      limits: DEFAULT_LIMITS,
      runEffect: (_id, fx, _s, lease) => {
        effects.push({ fx, lease });
        if (fx.type === 'runPhase') return new Promise<void>((r) => finish.push(r));
      },
    });
    return { host, store, lines, finish, effects, msgs: () => lines.map((l) => l.msg) };
  }

  async function startRun(a: ReturnType<typeof node>, id: string) {
    const flow = freezeFlow(FLOWS.mech_v1, {});
    const epoch = await a.store.create(
      { id, project_id: 'p', design_flow: 'mech_v1', version_id: flow.version_id, request: {}, state: emptyRun() },
      now(),
    );
    await a.host.create(id, epoch, { type: 'create', run_id: id, project_id: 'p', flow, patches: [] }, emptyRun());
  }

  it('logs the stall at the first renewal after it, drops the runs taken over, and logs again only once their work in flight ended', async () => {
    const a = node('A');
    const b = node('B');
    await startRun(a, 'stall-1');
    await startRun(a, 'stall-2');
    await expect.poll(() => a.finish.length).toBe(2);
    // A renewal on time: no stall.
    t += LEASE / 3;
    await a.host.renew(LEASE);
    expect(a.msgs()).toEqual([]);
    // A stands still past its lease; B takes one of its runs meanwhile.
    t += 2 * LEASE;
    await b.host.touch('stall-1');
    const renewed = a.host.renew(LEASE);
    let done = false;
    void renewed.then(() => (done = true));
    await expect.poll(() => a.msgs()).toEqual(['run host stalled past its lease']);
    expect(a.lines[0].stalled_ms).toBe(2 * LEASE);
    await expect.poll(() => a.effects.find((e) => e.fx.type === 'runPhase')!.lease.signal.aborted).toBe(true);
    expect(a.host.heldIds()).toEqual(['stall-2']);
    // Both phase executions of before the stall still run (the aborted one finishes its tool call in flight).
    a.finish[0]();
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    a.finish[1]();
    await renewed;
    expect(a.lines[1]).toMatchObject({ msg: 'run host work from before the stall ended', lost: 1, kept: 1 });
    expect(a.lines[1].ended).toBeGreaterThanOrEqual(2);
    // The next renewal on time says nothing more.
    t += LEASE / 3;
    await a.host.renew(LEASE);
    expect(a.lines).toHaveLength(2);
  });
});
