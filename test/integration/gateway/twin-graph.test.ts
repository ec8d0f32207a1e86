import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { ImportResultSchema } from '../../../contracts/twin-forms.ts';
import {
  LinkListSchema,
  NodeListSchema,
  NodeVersionsSchema,
  NodeViewSchema,
  RelationshipListSchema,
} from '../../../contracts/twin-views.ts';
import { getJson, postJson, rawGet } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

const STEP = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n');
const UPLOAD_LIMIT = 64 * 1024;

const t = useTestNode({ realDb: true, env: { SERVICE_UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) } });

const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const tool = (project: string, name: string, args: Record<string, unknown>, caller = {}) =>
  okData(callTool(t.node.broker, `twin.${name}`, { project_id: project, ...args }, caller));
const geometry = (project: string, name: string, extra: Record<string, unknown> = {}, caller = {}) =>
  tool(project, 'commit_geometry', { name, step_base64: STEP.toString('base64'), ...extra }, caller);

/** Posts the import form; `file` absent sends the text fields only. */
async function importForm(fields: Record<string, string>, file?: { name: string; bytes: Buffer; type?: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  const res = await fetch(`${t.url}/v1/twin/import`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe('graph reads', () => {
  it('lists visible nodes newest first, by project and type, paged; open drafts are left out', async () => {
    const p = await newProject('nodes');
    const r1 = await geometry(p, 'Arm');
    const r2 = await geometry(p, 'Arm');
    await geometry(p, 'Arm', {}, { run_id: 'run-nodes' });
    const d = await tool(p, 'record_decision', { title: 'Use aluminium', decision: '6061' });
    const all = NodeListSchema.parse((await getJson(`${t.url}/v1/twin/nodes?project_id=${p}`)).body);
    expect(all.total).toBe(3);
    expect(all.nodes.map((n) => n.id)).toEqual([d.node_id, r2.node_id, r1.node_id]);
    const cad = NodeListSchema.parse(
      (await getJson(`${t.url}/v1/twin/nodes?project_id=${p}&node_type=cad_model&limit=1&offset=1`)).body,
    );
    expect(cad).toMatchObject({
      total: 2,
      nodes: [expect.objectContaining({ id: r1.node_id, item_ref: `${r2.item_key}@1` })],
    });
  });

  it("serves a node with its edges, an assembly with assemblyParts, and 404 for unknown ids and other runs' drafts", async () => {
    const p = await newProject('node');
    const parts = [
      { name: 'base', kind: 'box', parameters: { x: 10, y: 10, z: 2 } },
      { name: 'post', kind: 'cylinder', parameters: { r: 2, h: 20 } },
    ];
    const asm = await geometry(p, 'Stand', { properties: { parts } });
    const view = NodeViewSchema.parse((await getJson(`${t.url}/v1/twin/nodes/${asm.node_id}`)).body);
    expect(view.assemblyParts).toEqual(parts);
    const plain = await geometry(p, 'Plain');
    expect((await getJson(`${t.url}/v1/twin/nodes/${plain.node_id}`)).body).not.toHaveProperty('assemblyParts');
    const draft = await geometry(p, 'Plain', {}, { run_id: 'run-hidden' });
    for (const id of [draft.node_id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await getJson(`${t.url}/v1/twin/nodes/${id}`);
      expect(res.status).toBe(404);
      expect(ErrorBodySchema.parse(res.body).error.code).toBe('NOT_FOUND');
    }
  });

  it("shows a node's relationships with direction and the other end, and the links between work products", async () => {
    const p = await newProject('links');
    await geometry(p, 'Beam');
    const geom = await geometry(p, 'Beam');
    const d = await tool(p, 'record_decision', { title: 'Weld it', decision: 'TIG', depends_on: [geom.item_key] });
    const rel = RelationshipListSchema.parse(
      (await getJson(`${t.url}/v1/twin/relationships?node_id=${geom.node_id}`)).body,
    );
    expect(rel.relationships.map((r) => [r.rel_type, r.direction]).sort()).toEqual([
      ['DEPENDS_ON', 'in'],
      ['REVISION_OF', 'out'],
      ['SUPERSEDES', 'out'],
    ]);
    expect(rel.relationships.find((r) => r.rel_type === 'DEPENDS_ON')?.other).toMatchObject({
      id: d.node_id,
      node_type: 'design_decision',
      name: 'Weld it',
    });
    const only = RelationshipListSchema.parse(
      (await getJson(`${t.url}/v1/twin/relationships?node_id=${geom.node_id}&rel_type=DEPENDS_ON`)).body,
    );
    expect(only.total).toBe(1);
    const links = LinkListSchema.parse((await getJson(`${t.url}/v1/twin/links?project_id=${p}`)).body);
    expect(links.links).toEqual([
      expect.objectContaining({
        rel_type: 'DEPENDS_ON',
        src: d.node_id,
        dst: geom.node_id,
        dst_node: expect.objectContaining({ item_ref: geom.item_ref }),
      }),
    ]);
    expect((await getJson(`${t.url}/v1/twin/relationships?node_id=00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
    expect((await getJson(`${t.url}/v1/twin/relationships`)).status).toBe(422);
  });

  it("lists the versions of a node's item; a record is its own only version", async () => {
    const p = await newProject('versions');
    const a = await geometry(p, 'Lid');
    const b = await geometry(p, 'Lid');
    const v = NodeVersionsSchema.parse((await getJson(`${t.url}/v1/twin/nodes/${a.node_id}/versions`)).body);
    expect(v.versions.map((x) => [x.node_id, x.ref, x.is_head])).toEqual([
      [a.node_id, `${a.item_key}@1`, false],
      [b.node_id, `${a.item_key}@2`, true],
    ]);
    const d = await tool(p, 'record_decision', { title: 'Hinge', decision: 'pin' });
    const rec = NodeVersionsSchema.parse((await getJson(`${t.url}/v1/twin/nodes/${d.node_id}/versions`)).body);
    expect(rec).toMatchObject({ item_key: null, versions: [{ node_id: d.node_id, revision: null, is_head: true }] });
  });
});

describe('import and stored files', () => {
  it('imports solver files and serves frd and dat as text, vtu as XML, byte for byte, with a 304 on the ETag', async () => {
    const p = await newProject('import');
    const cases = [
      { name: 'beam.frd', type: 'text/plain; charset=utf-8' },
      { name: 'beam.dat', type: 'text/plain; charset=utf-8' },
      { name: 'beam.vtu', type: 'application/xml' },
    ];
    for (const c of cases) {
      const bytes = Buffer.from(`    1C${c.name}\n -4  DISP\n`);
      const res = await importForm(
        { project_id: p, wp_type: 'solver_output', domain: 'mechanical', description: 'solver run' },
        { name: c.name, bytes },
      );
      expect(res.status).toBe(201);
      const imported = ImportResultSchema.parse(res.body);
      expect(imported).toMatchObject({
        node_type: 'solver_output',
        name: c.name,
        item_key: null,
        size_bytes: bytes.length,
      });
      const file = await rawGet(`${t.url}/v1/twin/nodes/${imported.node_id}/file`);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe(c.type);
      expect(file.body.equals(bytes)).toBe(true);
      expect(file.headers.etag).toBe(`"${imported.content_hash}"`);
      expect(
        (await rawGet(`${t.url}/v1/twin/nodes/${imported.node_id}/file`, { 'if-none-match': file.headers.etag! }))
          .status,
      ).toBe(304);
    }
    const node = NodeListSchema.parse((await getJson(`${t.url}/v1/twin/nodes?project_id=${p}&limit=1`)).body).nodes[0];
    expect(node.properties).toMatchObject({ domain: 'mechanical', description: 'solver run', source: 'import' });
  });

  it('imports a STEP file as the next revision of a cad_model item named by the file', async () => {
    const p = await newProject('import-step');
    const first = ImportResultSchema.parse(
      (await importForm({ project_id: p }, { name: 'bracket.step', bytes: STEP })).body,
    );
    const again = ImportResultSchema.parse(
      (await importForm({ project_id: p }, { name: 'bracket.step', bytes: STEP })).body,
    );
    expect(first).toMatchObject({ node_type: 'cad_model', revision: 1, media_type: 'model/step' });
    expect(again).toMatchObject({ item_key: first.item_key, revision: 2 });
    const file = await rawGet(`${t.url}/v1/twin/nodes/${again.node_id}/file`);
    expect(file.headers['content-type']).toBe('model/step');
    expect(file.body.equals(STEP)).toBe(true);
  });

  it('refuses a form without a file (422), a file over the upload limit (413), an unknown project (404) and a JSON body (415)', async () => {
    const none = await importForm({ description: 'no file here' });
    expect(none.status).toBe(422);
    expect(none.body.error.details.issues).toContainEqual({ path: 'body.file', message: 'a file is required' });
    const big = await importForm({}, { name: 'big.bin', bytes: Buffer.alloc(UPLOAD_LIMIT + 1024, 7) });
    expect(big.status).toBe(413);
    expect(ErrorBodySchema.parse(big.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    const ghost = await importForm(
      { project_id: '00000000-0000-4000-8000-000000000000' },
      { name: 'a.txt', bytes: Buffer.from('x') },
    );
    expect(ghost.status).toBe(404);
    expect((await importForm({ wp_type: 'Not A Type' }, { name: 'a.txt', bytes: Buffer.from('x') })).status).toBe(422);
    expect((await postJson(`${t.url}/v1/twin/import`, { file: 'x' })).status).toBe(415);
  });

  it('answers 404 for the file of a node that stores none', async () => {
    const p = await newProject('no-file');
    const d = await tool(p, 'record_decision', { title: 'No file', decision: 'none' });
    const res = await getJson(`${t.url}/v1/twin/nodes/${d.node_id}/file`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('has no stored file');
  });
});
