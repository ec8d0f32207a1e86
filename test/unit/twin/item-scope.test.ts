import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { refusalToRevise, resolveByName, revisionReason, type ScopedItem } from '../../../actors/twin/item-scope.ts';

/** Decision 0100: which item a write names, in a run and outside one (pure rules of actors/twin/item-scope.ts). */
const item = (key: string, origin_run_id: string | null): ScopedItem => ({ key, origin_run_id });
const R1 = 'run_1';
const R2 = 'run_2';

describe('resolveByName (a run resolves a name among its own items, its revise list and the unowned ones)', () => {
  it("never resolves a run's name to another run's item it did not list: the run creates its own", () => {
    expect(resolveByName([item('CAD-BRACKET-AAAA', R1)], { run_id: R2, revise: [] })).toEqual({ kind: 'new' });
  });

  it('prefers the run’s own item, then a listed one, then one no run owns', () => {
    const own = item('CAD-BRACKET-OWN1', R2);
    const listed = item('CAD-BRACKET-LIS1', R1);
    const unowned = item('CAD-BRACKET-PER1', null);
    const scope = { run_id: R2, revise: [listed.key] };
    expect(resolveByName([unowned, listed, own], scope)).toEqual({ kind: 'item', item: own });
    expect(resolveByName([unowned, listed], scope)).toEqual({ kind: 'item', item: listed });
    expect(resolveByName([unowned], scope)).toEqual({ kind: 'item', item: unowned });
    expect(resolveByName([], scope)).toEqual({ kind: 'new' });
  });

  it('is ambiguous when a run listed two items of the same name from different runs', () => {
    const a = item('CAD-BRACKET-BBBB', R1);
    const b = item('CAD-BRACKET-AAAA', 'run_0');
    expect(resolveByName([a, b], { run_id: R2, revise: [a.key, b.key] })).toEqual({
      kind: 'ambiguous',
      keys: ['CAD-BRACKET-AAAA', 'CAD-BRACKET-BBBB'],
    });
  });

  it('outside a run: one item of the name is it; several prefer the unowned one, else ambiguous', () => {
    const a = item('CAD-BRACKET-AAAA', R1);
    const b = item('CAD-BRACKET-BBBB', R2);
    const p = item('CAD-BRACKET-PPPP', null);
    expect(resolveByName([a], { revise: [] })).toEqual({ kind: 'item', item: a });
    expect(resolveByName([a, p, b], { run_id: null, revise: [] })).toEqual({ kind: 'item', item: p });
    expect(resolveByName([b, a], { revise: [] })).toEqual({ kind: 'ambiguous', keys: [a.key, b.key] });
  });

  it('property: in a run, the answer is never another run’s unlisted item, and is the own item whenever there is one', () => {
    const origin = fc.constantFrom<string | null>(null, R1, R2, 'run_3');
    const items = fc.uniqueArray(fc.record({ key: fc.stringMatching(/^CAD-[A-Z]{4}$/), origin_run_id: origin }), {
      selector: (i) => i.key,
      maxLength: 6,
    });
    fc.assert(
      fc.property(items, fc.subarray(['CAD-AAAA', 'CAD-BBBB', 'CAD-CCCC']), (cands, revise) => {
        const out = resolveByName(cands, { run_id: R2, revise });
        const own = cands.filter((c) => c.origin_run_id === R2);
        if (own.length === 1) expect(out).toEqual({ kind: 'item', item: own[0] });
        if (out.kind === 'item')
          expect(
            out.item.origin_run_id === null || out.item.origin_run_id === R2 || revise.includes(out.item.key),
          ).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('refusalToRevise (naming an item by key)', () => {
  it("refuses a run naming another run's item it did not list, naming the owner and the way to ask", () => {
    const msg = refusalToRevise(item('CAD-BRACKET-AAAA', R1), { run_id: R2, revise: [] });
    expect(msg).toContain(`belongs to run ${R1}`);
    expect(msg).toContain('revise: ["CAD-BRACKET-AAAA"]');
  });

  it('lets a run revise its own, listed and unowned items, and anyone outside a run revise anything', () => {
    expect(refusalToRevise(item('CAD-A-1', R2), { run_id: R2, revise: [] })).toBeUndefined();
    expect(refusalToRevise(item('CAD-A-1', R1), { run_id: R2, revise: ['CAD-A-1'] })).toBeUndefined();
    expect(refusalToRevise(item('CAD-A-1', null), { run_id: R2, revise: [] })).toBeUndefined();
    expect(refusalToRevise(item('CAD-A-1', R1), { revise: [] })).toBeUndefined();
  });
});

describe('revisionReason', () => {
  it("records who revised another run's item and keeps the writer's own reason", () => {
    const listed = item('CAD-A-1', R1);
    expect(revisionReason(listed, { run_id: R2, revise: [listed.key] }, null)).toBe(
      `revised by run ${R2} as its request asked (revise: CAD-A-1)`,
    );
    expect(revisionReason(listed, { run_id: R2, revise: [listed.key] }, 'thicker web')).toBe(
      `revised by run ${R2} as its request asked (revise: CAD-A-1): thicker web`,
    );
    expect(revisionReason(item('CAD-A-1', R2), { run_id: R2, revise: [] }, 'rework')).toBe('rework');
    expect(revisionReason(listed, { revise: [] }, null)).toBeNull();
  });
});
