import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { BaselineDiffSchema, BaselineListSchema, ItemHistoryResultSchema } from '../../../contracts/twin.ts';
import {
  CurrentViewSchema,
  DerivedPrdSchema,
  ItemDiffSchema,
  RevisionIndexSchema,
} from '../../../contracts/twin-views.ts';
import { getJson, postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

const STEP = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString('base64');

const t = useTestNode({ realDb: true });

const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const tool = (project: string, name: string, args: Record<string, unknown>, caller = {}) =>
  okData(callTool(t.node.broker, `twin.${name}`, { project_id: project, ...args }, caller));
const expectNotFound = async (path: string) => {
  const res = await getJson(`${t.url}${path}`);
  expect(res.status).toBe(404);
  expect(ErrorBodySchema.parse(res.body).error.code).toBe('NOT_FOUND');
};

describe('current view and item history over HTTP', () => {
  it('groups the head revisions of a project by type, leaving out drafts and other projects', async () => {
    const p = await newProject('view');
    const other = await newProject('other');
    await tool(p, 'commit_geometry', { name: 'Bracket', step_base64: STEP });
    const geom = await tool(p, 'commit_geometry', { name: 'Bracket', step_base64: STEP });
    const cs = await tool(p, 'record_constraint_set', {
      name: 'Limits',
      constraints: [{ metric: 'mass_kg', limit: 2, unit: 'kg' }],
    });
    await tool(
      p,
      'record_constraint_set',
      { name: 'Draft only', constraints: [{ metric: 'x', limit: 1 }] },
      { run_id: 'run-view' },
    );
    await tool(other, 'commit_geometry', { name: 'Elsewhere', step_base64: STEP });

    const res = await getJson(`${t.url}/v1/twin/current-view?project_id=${p}`);
    expect(res.status).toBe(200);
    const view = CurrentViewSchema.parse(res.body);
    expect(view.item_count).toBe(2);
    expect(Object.keys(view.by_type).sort()).toEqual(['cad_model', 'constraint_set']);
    expect(view.by_type.cad_model).toEqual([
      expect.objectContaining({
        key: geom.item_key,
        revision: 2,
        ref: `${geom.item_key}@2`,
        node_id: geom.node_id,
        stale: false,
      }),
    ]);
    expect(view.by_type.constraint_set.map((e) => e.key)).toEqual([cs.item_key]);
    const updated = view.by_type.cad_model[0].updated_at;
    expect(updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Math.abs(Date.parse(updated) - Date.now())).toBeLessThan(10 * 60_000);
    const empty = await newProject('empty');
    expect((await getJson(`${t.url}/v1/twin/current-view?project_id=${empty}`)).body).toEqual({
      project_id: empty,
      item_count: 0,
      by_type: {},
      unscoped_count: 0,
    });
  });

  it('marks a head stale when a revision it depends on was superseded', async () => {
    const p = await newProject('stale heads');
    const geom = await tool(p, 'commit_geometry', { name: 'Shaft', step_base64: STEP });
    const obj = await tool(p, 'record_engineering_entity', {
      entity_type: 'objective',
      name: 'Stiff shaft',
      parent_refs: [geom.item_key],
    });
    const before = CurrentViewSchema.parse((await getJson(`${t.url}/v1/twin/current-view?project_id=${p}`)).body);
    expect(before.by_type.objective[0]).toMatchObject({ key: obj.item_key, stale: false });
    await tool(p, 'commit_geometry', { name: 'Shaft', step_base64: STEP });
    const after = CurrentViewSchema.parse((await getJson(`${t.url}/v1/twin/current-view?project_id=${p}`)).body);
    expect(after.by_type.objective[0]).toMatchObject({ key: obj.item_key, stale: true });
    expect(after.by_type.cad_model[0]).toMatchObject({ revision: 2, stale: false });
  });

  it("lists an item's revisions with the current one, and answers 404 for an unknown or malformed key", async () => {
    const p = await newProject('history');
    const a = await tool(p, 'commit_geometry', { name: 'Plate', step_base64: STEP });
    await tool(p, 'commit_geometry', { name: 'Plate', step_base64: STEP, change_reason: 'thicker' });
    const res = await getJson(`${t.url}/v1/twin/items/${a.item_key}/revisions`);
    expect(res.status).toBe(200);
    const hist = ItemHistoryResultSchema.parse(res.body);
    expect(hist.revisions.map((r) => [r.revision, r.status, r.is_head])).toEqual([
      [1, 'committed', false],
      [2, 'committed', true],
    ]);
    expect(hist.current.ref).toBe(`${a.item_key}@2`);
    await expectNotFound('/v1/twin/items/CAD-NOPE-0000/revisions');
    await expectNotFound('/v1/twin/items/not-a-key/revisions');
  });
});

describe('item diff', () => {
  it('compares two revisions leaf by leaf, defaulting to the head against the revision before it', async () => {
    const p = await newProject('diff');
    const cs = await tool(p, 'record_constraint_set', {
      name: 'Stress',
      constraints: [{ metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' }],
    });
    await tool(p, 'record_constraint_set', {
      name: 'Stress',
      constraints: [
        { metric: 'max_von_mises_mpa', limit: 100, unit: 'MPa' },
        { metric: 'mass_kg', limit: 2, unit: 'kg' },
      ],
    });
    const explicit = ItemDiffSchema.parse(
      (await getJson(`${t.url}/v1/twin/items/${cs.item_key}/diff?from=1&to=2`)).body,
    );
    expect(explicit.from.ref).toBe(`${cs.item_key}@1`);
    expect(explicit.to.ref).toBe(`${cs.item_key}@2`);
    expect(explicit.changes).toContainEqual({ path: 'constraints.0.limit', change: 'changed', from: 125, to: 100 });
    expect(explicit.changes).toContainEqual(expect.objectContaining({ path: 'constraints.1', change: 'added' }));
    expect(explicit.counts).toEqual({ added: 1, removed: 0, changed: 1 });
    expect(explicit.name_changed).toBe(false);
    const byDefault = ItemDiffSchema.parse((await getJson(`${t.url}/v1/twin/items/${cs.item_key}/diff`)).body);
    expect(byDefault.changes).toEqual(explicit.changes);
    const reversed = ItemDiffSchema.parse(
      (await getJson(`${t.url}/v1/twin/items/${cs.item_key}/diff?from=2&to=1`)).body,
    );
    expect(reversed.changes).toContainEqual(expect.objectContaining({ path: 'constraints.1', change: 'removed' }));
  });

  it('answers 404 for an unknown revision or key and 422 when the first revision has nothing before it', async () => {
    const p = await newProject('diff-bad');
    const one = await tool(p, 'record_constraint_set', { name: 'Once', constraints: [{ metric: 'm', limit: 1 }] });
    await expectNotFound(`/v1/twin/items/${one.item_key}/diff?from=1&to=7`);
    await expectNotFound('/v1/twin/items/CS-UNKNOWN-0000/diff');
    const first = await getJson(`${t.url}/v1/twin/items/${one.item_key}/diff`);
    expect(first.status).toBe(422);
    expect(first.body.error.details.issues[0].path).toBe('querystring.from');
    expect((await getJson(`${t.url}/v1/twin/items/${one.item_key}/diff?from=zero`)).status).toBe(422);
  });
});

describe('prd views', () => {
  it('derives a prd revision with the current intent, needs and requirement table, and renders the project prd as markdown', async () => {
    const p = await newProject('prd');
    await tool(p, 'record_engineering_entity', {
      entity_type: 'intent',
      name: 'Lift a pump',
      statement: 'A bracket that holds a 5 kg pump',
    });
    await tool(p, 'record_engineering_entity', {
      entity_type: 'stakeholder_need',
      name: 'Quiet',
      statement: 'No rattling',
    });
    const cs = await tool(p, 'record_constraint_set', {
      name: 'Bracket limits',
      constraints: [{ metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa', verification_method: 'fea' }],
    });
    const prd = await tool(p, 'record_document', { document_type: 'prd', content: 'The bracket carries the pump.' });

    const res = await getJson(`${t.url}/v1/twin/items/${prd.item_ref}/prd`);
    expect(res.status).toBe(200);
    const doc = DerivedPrdSchema.parse(res.body);
    expect(doc).toMatchObject({ ref: prd.item_ref, is_head: true, prose: 'The bracket carries the pump.' });
    expect(doc.intent).toEqual([
      expect.objectContaining({ name: 'Lift a pump', statement: 'A bracket that holds a 5 kg pump' }),
    ]);
    expect(doc.needs.map((n) => n.name)).toEqual(['Quiet']);
    expect(doc.requirements).toEqual([
      expect.objectContaining({
        set_ref: `${cs.item_key}@1`,
        id: 'C1',
        metric: 'max_von_mises_mpa',
        limit: 125,
        unit: 'MPa',
        verification_method: 'fea',
      }),
    ]);

    const md = await fetch(`${t.url}/v1/twin/projects/${p}/prd`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toContain('text/markdown');
    const text = await md.text();
    expect(text).toContain(`(${prd.item_ref})`);
    expect(text).toContain('The bracket carries the pump.');
    expect(text).toContain('- **Lift a pump**');
    expect(text).toMatch(/\| [^|]+@1 \| C1 \| max_von_mises_mpa \| <= \| 125 \| MPa \|/);
  });

  it('answers 422 for a ref that is not a prd and 404 for a project without one or an unknown ref', async () => {
    const p = await newProject('no-prd');
    const cs = await tool(p, 'record_constraint_set', { name: 'L', constraints: [{ metric: 'm', limit: 1 }] });
    expect((await getJson(`${t.url}/v1/twin/items/${cs.item_ref}/prd`)).status).toBe(422);
    await expectNotFound(`/v1/twin/projects/${p}/prd`);
    await expectNotFound('/v1/twin/items/PRD-NOPE-0000@1/prd');
  });
});

describe('baselines and the revision index', () => {
  it('lists a gate baseline and diffs it against the current view and against a later baseline', async () => {
    const p = await newProject('baselines');
    const geom = await tool(p, 'commit_geometry', { name: 'Frame', step_base64: STEP });
    await tool(p, 'commit_geometry', { name: 'Frame', step_base64: STEP }, { run_id: 'run-b1' });
    const first = await call(t.node.broker, T.commitChangeSet, {
      run_id: 'run-b1',
      project_id: p,
      gate_id: 'run-b1:g1',
      gate_name: 'Design',
      approver: 'ana',
    });
    expect(first.status).toBe('committed');
    await tool(p, 'commit_geometry', { name: 'Frame', step_base64: STEP });

    const list = BaselineListSchema.parse((await getJson(`${t.url}/v1/twin/baselines?project_id=${p}`)).body);
    expect(list.total).toBe(1);
    const a = list.baselines[0];
    expect(a).toMatchObject({ gate_id: 'run-b1:g1', item_count: 1, approved_by: ['ana'] });

    const vsCurrent = BaselineDiffSchema.parse((await getJson(`${t.url}/v1/twin/baselines/diff?a=${a.id}`)).body);
    expect(vsCurrent).toMatchObject({ b: null, b_is_current: true, counts: { changed: 1 } });
    expect(vsCurrent.items).toEqual([
      expect.objectContaining({ key: geom.item_key, status: 'changed', from_revision: 2, to_revision: 3 }),
    ]);

    await tool(
      p,
      'record_constraint_set',
      { name: 'Added later', constraints: [{ metric: 'm', limit: 1 }] },
      { run_id: 'run-b2' },
    );
    const second = await call(t.node.broker, T.commitChangeSet, {
      run_id: 'run-b2',
      project_id: p,
      gate_id: 'run-b2:g1',
      gate_name: 'Req',
      approver: 'bo',
    });
    if (second.status !== 'committed') throw new Error('expected a commit');
    const twoWay = BaselineDiffSchema.parse(
      (await getJson(`${t.url}/v1/twin/baselines/diff?a=${a.id}&b=${second.baseline_id}`)).body,
    );
    expect(twoWay.b?.id).toBe(second.baseline_id);
    expect(twoWay.counts).toMatchObject({ added: 1, changed: 1 });
    await expectNotFound('/v1/twin/baselines/diff?a=00000000-0000-4000-8000-000000000000');
    await expectNotFound(`/v1/twin/baselines/diff?a=${a.id}&b=nope`);
  });

  it("pages the revision index of a project with every revision's ref and status", async () => {
    const p = await newProject('index');
    const a = await tool(p, 'commit_geometry', { name: 'A part', step_base64: STEP });
    await tool(p, 'commit_geometry', { name: 'A part', step_base64: STEP });
    await tool(p, 'commit_geometry', { name: 'A part', step_base64: STEP }, { run_id: 'run-idx' });
    await call(t.node.broker, T.closeDrafts, { run_id: 'run-idx', status: 'rejected', reason: 'no' });
    await tool(p, 'record_constraint_set', { name: 'B set', constraints: [{ metric: 'm', limit: 1 }] });
    const page = RevisionIndexSchema.parse(
      (await getJson(`${t.url}/v1/twin/revision-index?project_id=${p}&limit=1`)).body,
    );
    expect(page.total).toBe(2);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ key: a.item_key, head_ref: `${a.item_key}@2` });
    expect(page.items[0].revisions.map((r) => [r.ref, r.status])).toEqual([
      [`${a.item_key}@1`, 'committed'],
      [`${a.item_key}@2`, 'committed'],
      [`${a.item_key}@3`, 'rejected'],
    ]);
    const next = RevisionIndexSchema.parse(
      (await getJson(`${t.url}/v1/twin/revision-index?project_id=${p}&limit=1&offset=1`)).body,
    );
    expect(next.items[0].item_type).toBe('constraint_set');
    expect((await getJson(`${t.url}/v1/twin/revision-index?limit=0`)).status).toBe(422);
  });
});
