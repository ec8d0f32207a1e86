import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KernelPool } from '../../../workers/cad/host/pool.ts';
import { KernelTaskError } from '../../../workers/cad/host/protocol.ts';

// Real kernel threads (replicad-opencascadejs in worker_threads): kill on abort, recycling, limits.
let ws: string;
let pool: KernelPool;
const recycled: string[] = [];
beforeAll(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-pool-'));
  pool = new KernelPool({
    threads: 1,
    recycleHeapBytes: 2 ** 40,
    recycleAfterTasks: 3,
    maxOldGenerationSizeMb: 96,
    onRecycle: (_slot, reason) => recycled.push(reason),
  });
  const [initMs] = await pool.warm();
  expect(initMs).toBeGreaterThan(0);
}, 120_000);
afterAll(async () => {
  await pool?.close();
  fs.rmSync(ws, { recursive: true, force: true });
});

const script = (code: string, timeoutMs = 60_000) =>
  pool.run('runStatelessScript', { code, timeout_ms: timeoutMs, output: path.join(ws, 'r.step') });

describe('kernel pool', () => {
  it('kills the thread of a task whose caller aborts, and runs the next task on a fresh thread', async () => {
    const gen = pool.stats()[0].generation;
    const ctl = new AbortController();
    const looping = pool.run(
      'runStatelessScript',
      { code: 'for (;;) {}', timeout_ms: 600_000, output: path.join(ws, 'x.step') },
      { signal: ctl.signal },
    );
    const started = pool.run('ping', undefined); // queued behind the loop on the same (only) slot
    setImmediate(() => ctl.abort(new Error('deadline')));
    await expect(looping).rejects.toMatchObject({ kind: 'aborted' });
    expect(await started).toEqual({ ok: true });
    expect(pool.stats()[0].generation).toBe(gen + 1);
  }, 60_000);

  it('recycles a thread after its task budget (the backstop next to the wasm heap threshold)', async () => {
    const before = recycled.length;
    for (let i = 0; i < 3; i++) await pool.run('ping', undefined);
    expect(recycled.length).toBeGreaterThan(before);
    expect(recycled.at(-1)).toMatch(/recycled after 3 tasks with a \d+ MB wasm heap/);
    expect(await pool.run('ping', undefined)).toEqual({ ok: true });
  }, 60_000);

  it('stops a script at its CPU limit and a script past its memory limit, as task errors', async () => {
    await expect(script('for (;;) {}', 200)).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('CPU time limit'),
    });
    const oom = script('const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));');
    await expect(oom).rejects.toBeInstanceOf(KernelTaskError);
    await expect(oom).rejects.toMatchObject({ kind: 'crash' });
    expect(await pool.run('ping', undefined)).toEqual({ ok: true });
  }, 120_000);

  it('refuses a script that changes shared objects and replaces its thread', async () => {
    const gen = pool.stats()[0].generation;
    const attacks = [
      'Object.getPrototypeOf(makeBaseBox(1, 1, 1).boundingBox.bounds).evil = 1',
      'Object.getPrototypeOf(makeBaseBox(1, 1, 1)).fillet = () => 0',
    ];
    const later = 'Promise.resolve().then(() => { Object.getPrototypeOf(makeBaseBox(1, 1, 1)).chamfer = () => 0; }); 1';
    for (const code of [...attacks, later])
      await expect(script(code), code).rejects.toMatchObject({
        message: expect.stringContaining('changed shared objects'),
      });
    expect(await pool.run('ping', undefined)).toEqual({ ok: true });
    expect(pool.stats()[0].generation).toBe(gen + 3);
    expect(
      await script(
        'Object.getPrototypeOf(makeBaseBox(1, 1, 1).boundingBox.bounds).evil === undefined && typeof makeBaseBox(2, 2, 2).fillet(0.5) === "object"',
      ),
    ).toMatchObject({ result: true });
  }, 120_000);

  it('pins a key to one slot', () => {
    const big = new KernelPool({ threads: 4, recycleHeapBytes: 1, recycleAfterTasks: 1, maxOldGenerationSizeMb: 64 });
    expect(big.slotFor('session-a')).toBe(big.slotFor('session-a'));
    expect(new Set(Array.from({ length: 40 }, (_, i) => big.slotFor(`s-${i}`))).size).toBeGreaterThan(1);
  });
});
