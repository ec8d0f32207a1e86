import { afterEach, describe, expect, it } from 'vitest';
import { KernelPool } from '../../../workers/cad/host/pool.ts';

// Real kernel threads: a slot's thread starts on its first task and goes after `idleMs` without one. The release is
// observed through the pool's thread count (expect.poll), never by sleeping past the period.
let pool: KernelPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const make = (idleMs: number, released: number[] = []) =>
  (pool = new KernelPool({
    threads: 2,
    recycleHeapBytes: 2 ** 40,
    recycleAfterTasks: 1000,
    maxOldGenerationSizeMb: 96,
    idleMs,
    onRelease: (slot) => released.push(slot),
  }));

describe('kernel pool threads on demand', () => {
  it('starts no thread until the first task, and only the slot that takes it', async () => {
    const p = make(0);
    expect(p.runningThreads()).toBe(0);
    expect(p.startupError()).toBeUndefined();
    expect(await p.run('ping', undefined)).toEqual({ ok: true });
    expect(p.runningThreads()).toBe(1);
    expect(p.stats().map((s) => s.running)).toEqual([true, false]);
  }, 120_000);

  it('releases an idle thread after the quiet period; the next task starts a fresh one', async () => {
    const released: number[] = [];
    const p = make(20, released);
    expect(await p.run('ping', undefined, { slot: 1 })).toEqual({ ok: true });
    // The release timer is armed after the reply, so the thread is still there when the task's promise settles.
    expect(p.runningThreads()).toBe(1);
    await expect.poll(() => p.runningThreads(), { timeout: 60_000, interval: 10 }).toBe(0);
    expect(released).toEqual([1]);
    expect(p.stats()[1]).toMatchObject({ generation: 1, running: false });
    expect(p.startupError()).toBeUndefined();
    expect(await p.run('ping', undefined, { slot: 1 })).toEqual({ ok: true });
    expect(p.stats()[1]).toMatchObject({ generation: 1, running: true, tasks: 1 });
  }, 120_000);

  it('does not start a thread for a task that only makes sense on a running one', async () => {
    const p = make(0);
    const dropped = await p.run(
      'session',
      { session_id: 's1', expected_seq: 0, action: { type: 'drop' } },
      { slot: 0, ifRunning: true },
    );
    expect(dropped).toBeUndefined();
    expect(p.runningThreads()).toBe(0);
  });
});
