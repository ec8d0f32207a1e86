import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDb, migrate, type Db } from '../../../brokers/db/index.ts';
import { createCadSessionStore, type CadSessionStore } from '../../../actors/cadsessions/cadsessions.store.ts';
import { checkKernel } from '../../../actors/adapters/kit/cad/common.ts';
import type { KernelPool } from '../../../workers/cad/host/pool.ts';

let db: Db;
let store: CadSessionStore;
const now = new Date('2026-11-22T10:00:00Z');
beforeAll(async () => {
  db = await createPgliteDb('memory://');
  await migrate(db);
  store = createCadSessionStore(db);
});
afterAll(async () => {
  await db?.close();
});

describe('cad session store (migration 0030)', () => {
  it('appends features only at the count the writer started from, and never after close', async () => {
    const id = crypto.randomUUID();
    await store.open(id, 's', null, now);
    expect(await store.append(id, 0, 'create_body', { name: 'a' }, 'node-a', now)).toBe(true);
    // A second writer that also started at 0 (another node in the takeover window) writes nothing.
    expect(await store.append(id, 0, 'create_body', { name: 'b' }, 'node-b', now)).toBe(false);
    expect(await store.append(id, 1, 'create_body', { name: 'c' }, 'node-b', now)).toBe(true);
    expect((await store.history(id)).map((f) => [f.seq, f.args.name])).toEqual([
      [1, 'a'],
      [2, 'c'],
    ]);
    expect(await store.get(id)).toMatchObject({ feature_count: 2, owner_node: 'node-b', status: 'open' });
    await store.close(id, now);
    expect(await store.append(id, 2, 'create_body', {}, 'node-b', now)).toBe(false);
    expect(await store.get('not-a-uuid')).toBeUndefined();
  });

  it('keeps the latest export per object in the stash and imported files by hash', async () => {
    const id = crypto.randomUUID();
    await store.open(id, 's', 'p1', now);
    await store.stash(id, 'part_1', Buffer.from('first'), 1, now);
    await store.stash(id, 'part_1', Buffer.from('second'), 2, now);
    expect((await store.stashed(id, 'part_1'))?.toString()).toBe('second');
    expect(await store.stashed(id, 'part_9')).toBeUndefined();
    const sha = await store.putFile(Buffer.from('step bytes'), now);
    expect(await store.putFile(Buffer.from('step bytes'), now)).toBe(sha);
    expect((await store.getFile(sha))?.toString()).toBe('step bytes');
  });
});

describe('CAD engine health', () => {
  it('is unhealthy naming why when the kernel threads cannot start, healthy otherwise', async () => {
    const failing = { startupError: () => 'RuntimeError: wasm validation failed' } as unknown as KernelPool;
    expect(await checkKernel({ current: () => failing })).toEqual({
      status: 'unhealthy',
      message: 'the OpenCascade kernel threads do not start: RuntimeError: wasm validation failed',
    });
    expect(await checkKernel({ current: () => undefined })).toEqual({ status: 'healthy' });
  });
});
