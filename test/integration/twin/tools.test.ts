import fs from 'node:fs';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData, toolError } from '../../support/tools.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const FIXTURES = `${SIM_FIXTURES}/reference_payloads`;
const STEP = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString('base64');

const t = useTestNode({ realDb: true });
let project: string;
beforeAll(async () => {
  const res = await fetch(`${t.url}/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'twin tools' }),
  });
  project = ((await res.json()) as { id: string }).id;
});

const tool = (name: string, args: Record<string, unknown>, caller = {}) =>
  callTool(t.node.broker, `twin.${name}`, { project_id: project, ...args }, caller);

describe('definition writes through the twin tools', () => {
  it('commits geometry revisions, resolves KEY and KEY@n, and refuses a stale ref writing nothing', async () => {
    const a = await okData(tool('commit_geometry', { name: 'Bracket', step_base64: STEP }));
    expect(a).toMatchObject({ revision: 1, source: 'step_base64' });
    const b = await okData(tool('commit_geometry', { name: 'Bracket', step_base64: STEP, change_reason: 'rev B' }));
    expect(b).toMatchObject({ item_key: a.item_key, revision: 2 });
    expect(await okData(tool('get_node', { item_key: a.item_key }))).toMatchObject({ id: b.node_id, revision: 2 });
    expect(await okData(tool('get_node', { item_key: `${a.item_key}@1` }))).toMatchObject({ id: a.node_id });
    const stale = await toolError(
      tool('commit_geometry', { name: 'Bracket', step_base64: STEP, item_key: `${a.item_key}@1` }),
    );
    expect(stale.message).toContain('is stale');
    const hist = await okData(tool('item_history', { item_key: a.item_key }));
    expect(hist.revisions).toHaveLength(2);
    expect(hist.current).toMatchObject({ revision: 2, ref: `${a.item_key}@2` });
  });

  it('fails commit_geometry with no geometry naming the absent fields, and a file_path outside the workspace as invalid arguments', async () => {
    const none = await toolError(tool('commit_geometry', { name: 'Nothing' }));
    expect(none.message).toContain('session_id, obj_id, step_base64 are absent');
    const out = await callTool(t.node.broker, 'twin.commit_geometry', {
      project_id: project,
      name: 'Escape',
      file_path: '../../etc/passwd',
    });
    expect(out).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
  });

  it('makes drafts inside a run: revision_status draft, a draft note, and the head does not move', async () => {
    const base = await okData(
      tool('record_constraint_set', {
        name: 'Limits',
        constraints: [{ metric: 'max_von_mises_mpa', limit: 125, unit: 'MPa' }],
      }),
    );
    const draft = await okData(
      tool(
        'record_constraint_set',
        { name: 'Limits', constraints: [{ metric: 'max_von_mises_mpa', limit: 100, unit: 'MPa' }] },
        { run_id: 'run-tools' },
      ),
    );
    expect(draft).toMatchObject({ item_key: base.item_key, revision: 2, revision_status: 'draft' });
    expect(draft.draft_note).toMatch(/^[^\n]+$/);
    expect((await okData(tool('get_node', { item_key: base.item_key }))).revision).toBe(1);
    expect((await okData(tool('get_node', { item_key: base.item_key }, { run_id: 'run-tools' }))).revision).toBe(2);
    const others = await okData(tool('item_history', { item_key: base.item_key }, { run_id: 'another-run' }));
    expect(others.revisions.map((r: { status: string }) => r.status)).toEqual(['committed']);
  });

  it('pins depends_on of a decision to exact revisions and refuses an unknown one writing nothing', async () => {
    const cs = await okData(
      tool('record_constraint_set', { name: 'Pins', constraints: [{ metric: 'mass_kg', limit: 2, unit: 'kg' }] }),
    );
    const d = await okData(
      tool('record_decision', { title: 'Use steel', decision: 'S355', depends_on: [cs.item_key] }),
    );
    expect(d.depends_on).toEqual([`${cs.item_key}@1`]);
    const bad = await toolError(tool('record_decision', { title: 'Bad', decision: 'x', depends_on: ['CS-NOPE-0000'] }));
    expect(bad.message).toContain('depends_on CS-NOPE-0000');
  });
});

describe('record_document', () => {
  it("records prd prose as the project's single prd item with requirement refs and stray values", async () => {
    await okData(
      tool('record_constraint_set', {
        name: 'Bracket limits',
        constraints: [{ metric: 'length', limit: 200, unit: 'mm' }],
      }),
    );
    const first = await okData(
      tool('record_document', {
        document_type: 'prd',
        content: 'The bracket is 200 mm long and carries 100 N at 20 °C.',
      }),
    );
    expect(first.item_key).toMatch(/^PRD-/);
    expect(first.requirement_refs.length).toBeGreaterThanOrEqual(1);
    expect(first.stray_requirement_values).toEqual(['100 N', '20 °C']);
    expect(first.requirement_warning).toContain('2 value(s)');
    const second = await okData(tool('record_document', { document_type: 'prd', content: '' }));
    expect(second).toMatchObject({ item_key: first.item_key, revision: 2 });
    expect(second).not.toHaveProperty('stray_requirement_values');
  });

  it('records a simulation result with its field, pinned to the analysed geometry, and marks it stale on a new geometry revision', async () => {
    const geom = await okData(tool('commit_geometry', { name: 'Beam', step_base64: STEP }));
    const field = fs.readFileSync(`${FIXTURES}/beam_coarse.field.json.gz`).toString('base64');
    const r = await okData(
      tool('record_document', {
        document_type: 'simulation_result',
        name: 'beam fea',
        summary: { max_von_mises_mpa: 450 },
        field_base64: field,
        analysed_geometry_node_id: geom.node_id,
      }),
    );
    expect(r).toMatchObject({
      field_stored: true,
      field_format: 'service.sim_field',
      analysed_geometry: { node_id: geom.node_id, revision: 1 },
    });
    expect(r.field_object_key).toBe(`work-products/${r.node_id}/beam_fea.field.json.gz`);
    const node = await okData(tool('get_node', { node_id: r.node_id }));
    expect(node.properties.fixtures.length).toBeGreaterThan(0);
    expect(node.edges).toEqual(
      expect.arrayContaining([expect.objectContaining({ rel_type: 'DERIVES_FROM', dst: geom.node_id })]),
    );
    await okData(tool('commit_geometry', { name: 'Beam', step_base64: STEP }));
    expect((await okData(tool('get_node', { node_id: r.node_id }))).stale).toBe(true);
  });

  it('rejects a field that is not a service.sim_field payload before anything is created', async () => {
    const junk = zlib.gzipSync(JSON.stringify({ format: 'other', version: 1 })).toString('base64');
    const err = await toolError(
      tool('record_document', { document_type: 'simulation_result', name: 'junk', field_base64: junk }),
    );
    expect(err.message).toContain('not a service.sim_field v1 payload');
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/service_sim_field_store_total\{outcome="invalid"\} [1-9]/);
    const bad = await callTool(t.node.broker, 'twin.record_document', {
      project_id: project,
      document_type: 'prd',
      field_base64: junk,
    });
    expect(bad).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
  });
});

describe('human authority and staging', () => {
  it('files a pending request and refuses to decide for a tool caller', async () => {
    const err = await toolError(tool('approve_engineering_change', { change_id: 'c-1' }));
    expect(err.message).toContain("needs a person's authority");
    expect(err.details).toMatchObject({ code: 'human_authority_required', request_id: expect.any(String) });
  });

  it('stages a committed STEP into the workspace with a next step', async () => {
    const geom = await okData(tool('commit_geometry', { name: 'Staged', step_base64: STEP }));
    const s = await okData(tool('stage_work_product_file', { item_key: geom.item_key }));
    expect(s.file_path).toBe(`staged/${geom.node_id}/Staged.step`);
    expect(s.next_step).toContain('cadkernel.import_step');
  });
});

describe('twin.query_cypher through the tool', () => {
  it('answers a read query, refuses writes without the launcher flag, and needs $project_id in a project-scoped call', async () => {
    const geom = await okData(tool('commit_geometry', { name: 'Queried', step_base64: STEP }));
    const rows = await okData(
      callTool(t.node.broker, 'twin.query_cypher', {
        query: 'MATCH (n:CadModel {name: $name}) RETURN n.item_key AS key',
        params: { name: 'Queried' },
      }),
    );
    expect(rows.rows).toEqual([{ key: geom.item_key }]);
    const write = await toolError(
      callTool(t.node.broker, 'twin.query_cypher', { query: 'MATCH (n:CadModel) SET n.x = 1' }),
    );
    expect(write.message).toContain('read-only');
    const scoped = await toolError(
      callTool(
        t.node.broker,
        'twin.query_cypher',
        { query: 'MATCH (n) RETURN count(n) AS c' },
        { project_id: project },
      ),
    );
    expect(scoped.message).toContain('$project_id');
    const ok = await okData(
      callTool(
        t.node.broker,
        'twin.query_cypher',
        { query: 'MATCH (n:CadModel {project_id: $project_id}) RETURN count(n) AS c' },
        { project_id: project },
      ),
    );
    expect(ok.rows[0].c).toBeGreaterThan(0);
  });
});
