import { describe, expect, it } from 'vitest';
import { batchLoader } from '../../brokers/db/batch.ts';

describe('batchLoader', () => {
  it('loads the keys asked for in one turn of the event loop with one call, each caller getting its own value', async () => {
    const calls: string[][] = [];
    const get = batchLoader(async (keys) => {
      calls.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `value of ${k}`]));
    });
    const answers = await Promise.all([get('a'), get('b'), get('a'), get('missing')]);
    expect(answers).toEqual(['value of a', 'value of b', 'value of a', undefined]);
    expect(calls).toEqual([['a', 'b', 'missing']]);
    // A later turn is a new batch: nothing is cached between batches, so a read after a write sees the write.
    expect(await get('c')).toBe('value of c');
    expect(calls).toEqual([['a', 'b', 'missing'], ['c']]);
  });

  it('fails every caller of a batch whose load failed, and loads the next batch afresh', async () => {
    let fail = true;
    const get = batchLoader(async (keys) => {
      if (fail) throw new Error('database gone');
      return new Map(keys.map((k) => [k, k.length]));
    });
    const [a, b] = await Promise.allSettled([get('x'), get('yy')]);
    expect(a).toMatchObject({ status: 'rejected', reason: new Error('database gone') });
    expect(b).toMatchObject({ status: 'rejected' });
    fail = false;
    expect(await get('yy')).toBe(2);
  });
});
