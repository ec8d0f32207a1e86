import { describe, expect, it } from 'vitest';
import { buildAliasIndex, resolveToolId, suggest } from '../../../actors/tools/resolve.ts';
import { TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';

const ids = new Set(TOOL_CATALOGUE.keys());
const index = buildAliasIndex(ids);
const resolve = (name: string) => resolveToolId(name, ids, index);

describe('tool id resolution', () => {
  it('finds canonical ids and resolves separator mistakes to them', () => {
    expect(resolve('twin.get_node')).toEqual({ kind: 'found', id: 'twin.get_node', alias: false });
    expect(resolve('twin_get_node')).toEqual({ kind: 'found', id: 'twin.get_node', alias: true });
    expect(resolve('twin/get_node')).toEqual({ kind: 'found', id: 'twin.get_node', alias: true });
    expect(resolve('cadkernel:open_session')).toEqual({ kind: 'found', id: 'cadkernel.open_session', alias: true });
  });

  it('refuses an alias that matches two tools', () => {
    const two = new Set(['a_b.c', 'a.b_c']);
    expect(resolveToolId('a_b_c', two, buildAliasIndex(two))).toEqual({
      kind: 'ambiguous',
      matches: ['a.b_c', 'a_b.c'],
    });
    // Each canonical id still resolves exactly.
    expect(resolveToolId('a.b_c', two, buildAliasIndex(two))).toMatchObject({ kind: 'found', id: 'a.b_c' });
  });

  it('suggests close matches for an unknown id', () => {
    expect(resolve('twin.get_nod')).toEqual({ kind: 'unknown', didYouMean: ['twin.get_node'] });
    expect(suggest('get_node', [...ids])).toEqual(['twin.get_node']);
    expect(suggest('solver.run_feaa', [...ids])[0]).toBe('solver.run_fea');
    expect(suggest('project.gett', [...ids])).toEqual(['project.get']);
    expect(suggest('completely_unrelated_words', [...ids])).toEqual([]);
  });
});
