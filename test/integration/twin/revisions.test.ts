import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import type { ActorError } from '../../../brokers/errors.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { startActors } from '../../support/actors.ts';

let h: BrokerHandle;
let faultAt: string | undefined;
beforeAll(async () => {
  h = await startActors([
    (infra) =>
      createTwinService(infra, {
        faults: (step) => {
          if (step === faultAt) throw new Error(`injected fault at ${step}`);
        },
      }),
  ]);
});
afterAll(async () => {
  await h.stop();
});

const P = 'p-revisions';
const write = (name: string, extra: Record<string, unknown> = {}) =>
  call(h.broker, T.writeDefinition, {
    project_id: P,
    item_type: 'cad_model',
    name,
    properties: { v: extra.v ?? 1 },
    ...extra,
  });
const fail = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as ActorError,
  );

describe('definition writes outside a run', () => {
  it('makes committed revisions of one item per name and moves the head', async () => {
    const a = await write('Bracket');
    expect(a).toMatchObject({ revision: 1, item_ref: `${a.item_key}@1` });
    expect(a.item_key).toMatch(/^CAD-BRACKET-[A-Z0-9]{4}$/);
    expect(a.revision_status).toBeUndefined();
    const b = await write('Bracket', { v: 2, change_reason: 'thicker' });
    expect(b).toMatchObject({ item_key: a.item_key, revision: 2 });
    const hist = await call(h.broker, T.itemHistory, { item_key: a.item_key });
    expect(hist.head_ref).toBe(`${a.item_key}@2`);
    expect(hist.revisions.map((r) => [r.revision, r.status, r.is_head])).toEqual([
      [1, 'committed', false],
      [2, 'committed', true],
    ]);
    expect(hist.revisions[1].change_reason).toBe('thicker');
    const node = await call(h.broker, T.getNode, { node_id: b.node.id });
    expect(node.edges.map((e) => e.rel_type).sort()).toEqual(['REVISION_OF', 'SUPERSEDES']);
  });

  it('fails a stale KEY@n and writes nothing; an unknown bare key names a new item', async () => {
    const a = await write('Plate');
    await write('Plate', { v: 2 });
    const err = await fail(write('Plate', { item_key: `${a.item_key}@1` }));
    expect(err?.type).toBe('STALE_REVISION');
    expect(err?.message).toContain(`${a.item_key}@1 is stale: the head is ${a.item_key}@2`);
    expect((await call(h.broker, T.itemHistory, { item_key: a.item_key })).revisions).toHaveLength(2);
    const fresh = await write('Whatever', { item_key: 'CAD-MY-KEY' });
    expect(fresh).toMatchObject({ item_key: 'CAD-MY-KEY', revision: 1 });
    expect((await fail(write('X', { item_key: 'CAD-NOPE@3' })))?.type).toBe('NOT_FOUND');
  });

  it('marks dependants of a replaced head stale', async () => {
    const geom = await write('Beam');
    const result = await call(h.broker, T.recordNode, {
      project_id: P,
      node_type: 'simulation_result',
      name: 'fea',
      depends_on: [geom.item_ref],
    });
    expect(result.pinned).toEqual([{ ref: geom.item_ref, node_id: geom.node.id }]);
    await write('Beam', { v: 2 });
    const after = await call(h.broker, T.getNode, { node_id: result.node.id });
    expect(after.stale).toBe(true);
    expect(after.stale_reason).toContain(`${geom.item_key}@1 was superseded by ${geom.item_key}@2`);
  });

  it('refuses a record whose depends_on names an unknown item and writes nothing', async () => {
    const err = await fail(
      call(h.broker, T.recordNode, {
        project_id: P,
        node_type: 'design_decision',
        name: 'd',
        depends_on: ['CAD-UNKNOWN-ZZZZ'],
      }),
    );
    expect(err?.type).toBe('NOT_FOUND');
    expect(err?.message).toContain('depends_on CAD-UNKNOWN-ZZZZ');
  });
});

describe('drafts inside a run and the change-set commit', () => {
  it('keeps drafts private to their run until the gate commits them atomically with a baseline', async () => {
    const base = await write('Housing');
    const w = { run_id: 'run-1', phase: 'design' };
    const d = await write('Housing', { v: 9, writer: w });
    expect(d).toMatchObject({ item_key: base.item_key, revision: 2, revision_status: 'draft' });
    expect(d.draft_note).toContain('the head stays at');
    // Other callers still see the head; the run sees its draft.
    expect((await call(h.broker, T.getNode, { item_key: base.item_key })).revision).toBe(1);
    expect((await call(h.broker, T.getNode, { item_key: base.item_key, run_id: 'run-1' })).revision_status).toBe(
      'draft',
    );
    expect((await call(h.broker, T.itemHistory, { item_key: base.item_key, run_id: 'run-2' })).revisions).toHaveLength(
      1,
    );
    expect((await fail(call(h.broker, T.getNode, { node_id: d.node.id })))?.type).toBe('NOT_FOUND');

    const out = await call(h.broker, T.commitChangeSet, {
      run_id: 'run-1',
      project_id: P,
      gate_id: 'run-1:design:1',
      gate_name: 'design',
      approver: 'alice',
      reason: 'ok',
    });
    expect(out.status).toBe('committed');
    const hist = await call(h.broker, T.itemHistory, { item_key: base.item_key });
    expect(hist.head_ref).toBe(`${base.item_key}@2`);
    expect(hist.revisions[1]).toMatchObject({ status: 'approved', gate: 'run-1:design:1', is_head: true });
    const baseline = await call(h.broker, T.baseline, { id: out.status === 'committed' ? out.baseline_id : '' });
    expect(baseline).toMatchObject({
      gate_id: 'run-1:design:1',
      run_id: 'run-1',
      approved_by: ['alice'],
      source: 'gate',
    });
    expect(baseline.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: base.item_key, revision: 2 })]),
    );
  });

  it('reports a patch conflict and commits nothing when a drafted item moved', async () => {
    const base = await write('Lid');
    await write('Lid', { v: 5, writer: { run_id: 'run-c' } });
    await write('Lid', { v: 6 });
    const out = await call(h.broker, T.commitChangeSet, {
      run_id: 'run-c',
      project_id: P,
      gate_id: 'g',
      gate_name: 'design',
      approver: 'a',
    });
    expect(out).toEqual({
      status: 'conflict',
      conflicts: [{ key: base.item_key, base_revision: 1, head_revision: 2 }],
    });
    const hist = await call(h.broker, T.itemHistory, { item_key: base.item_key, run_id: 'run-c' });
    expect(hist.revisions.find((r) => r.run_id === 'run-c')?.status).toBe('draft');
  });

  it('is all-or-nothing: a fault after the heads moved leaves nothing changed', async () => {
    const one = await write('Rib');
    const two = await write('Web');
    await write('Rib', { v: 2, writer: { run_id: 'run-f' } });
    await write('Web', { v: 2, writer: { run_id: 'run-f' } });
    faultAt = 'after_baseline';
    const err = await fail(
      call(h.broker, T.commitChangeSet, {
        run_id: 'run-f',
        project_id: P,
        gate_id: 'gf',
        gate_name: 'design',
        approver: 'a',
      }),
    );
    faultAt = undefined;
    expect(err?.message).toContain('injected fault');
    for (const k of [one.item_key, two.item_key]) {
      const hist = await call(h.broker, T.itemHistory, { item_key: k, run_id: 'run-f' });
      expect(hist.head_ref).toBe(`${k}@1`);
      expect(hist.revisions.map((r) => r.status)).toEqual(['committed', 'draft']);
    }
    expect((await call(h.broker, T.baselines, { project_id: P })).baselines.filter((b) => b.gate_id === 'gf')).toEqual(
      [],
    );
    // Approving again then succeeds.
    const ok = await call(h.broker, T.commitChangeSet, {
      run_id: 'run-f',
      project_id: P,
      gate_id: 'gf',
      gate_name: 'design',
      approver: 'a',
    });
    expect(ok.status).toBe('committed');
  });

  it('marks drafts rejected or abandoned with a reason', async () => {
    await write('Foot', { writer: { run_id: 'run-r' } });
    expect(
      await call(h.broker, T.closeDrafts, { run_id: 'run-r', status: 'rejected', reason: 'wrong material' }),
    ).toEqual({ closed: 1 });
    const items = (await call(h.broker, T.listItems, { project_id: P })).items.find((i) => i.name === 'Foot')!;
    const hist = await call(h.broker, T.itemHistory, { item_key: items.key, run_id: 'someone-else' }).catch(
      (e: Error) => e,
    );
    // Only a rejected draft exists: no revision is current for anybody, but the closed draft is listed to its run.
    expect(hist).toBeInstanceOf(Error);
    const own = await call(h.broker, T.itemHistory, { item_key: items.key, run_id: 'run-r' }).catch((e: Error) => e);
    expect(own).toBeInstanceOf(Error);
  });
});
