import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionResultSchema } from '../../../contracts/cad.ts';
import { ErrorBodySchema } from '../../../contracts/errors.ts';
import { ConversionMetadataSchema } from '../../../workers/convert/convert.schemas.ts';
import { gmshStep, igesBox, namedColouredStep } from '../../support/cad-files.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, realDbEnv } from '../../support/tools.ts';

type Report = { issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string }[] } };
const validator = createRequire(import.meta.url)('gltf-validator') as { validateBytes(b: Uint8Array): Promise<Report> };

const UPLOAD_LIMIT = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'convert-'));
let t: TestNode;
let drop: () => Promise<void>;
let plate: Buffer;
let ring: Buffer;
beforeAll(async () => {
  const db = await realDbEnv();
  drop = db.drop;
  t = await startTestNode({ env: { ...db.env, SERVICE_UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) } });
  plate = fs.readFileSync(
    await gmshStep(dir, 'plate', 'Box(1) = {0, 0, 0, 100, 40, 10};\nCylinder(2) = {50, 20, 10, 0, 0, 30, 8};'),
  );
  ring = fs.readFileSync(await gmshStep(dir, 'ring', 'Torus(1) = {0, 0, 0, 20, 4};'));
});
afterAll(async () => {
  await t.stop();
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Posts a multipart form; `file` absent sends only a text field. */
async function upload(file?: { name: string; bytes: Buffer | string }, field = 'file') {
  const form = new FormData();
  form.append('note', 'conversion test');
  if (file) form.append(field, new Blob([Buffer.from(file.bytes)]), file.name);
  const res = await fetch(`${t.url}/v1/convert`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as any };
}
const sha = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');
const error = (body: unknown) => ErrorBodySchema.parse(body).error;

/** Reads a GLB back: node count, mesh count, the root scale, and the bounding box of every position in metres. */
async function readBack(glb: Uint8Array) {
  const doc = await new NodeIO().readBinary(glb);
  const root = doc.getRoot();
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const node of root.listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION')!.getArray()!;
      for (let i = 0; i < pos.length; i += 3) {
        for (let a = 0; a < 3; a++) {
          const v = m[a] * pos[i] + m[4 + a] * pos[i + 1] + m[8 + a] * pos[i + 2] + m[12 + a];
          min[a] = Math.min(min[a], v);
          max[a] = Math.max(max[a], v);
        }
      }
    }
  }
  return {
    nodes: root.listNodes().length,
    meshes: root.listMeshes().length,
    scale: root.listScenes()[0].listChildren()[0].getScale(),
    min,
    max,
  };
}

describe('POST /v1/convert', () => {
  it('converts a STEP file to a valid GLB with the part tree, stats and materials, then answers from the cache', async () => {
    const first = await upload({ name: 'plate.step', bytes: plate });
    expect(first.status).toBe(200);
    const result = ConversionResultSchema.parse(first.body);
    expect(result).toMatchObject({ hash: sha(plate), glb_url: `/v1/convert/${sha(plate)}.glb`, cached: false });
    const meta = ConversionMetadataSchema.parse(result.metadata);
    expect(meta.stats).toMatchObject({
      format: 'step',
      source_bytes: plate.length,
      parts: 2,
      meshes: 2,
      bbox_min_mm: [0, 0, 0],
    });
    expect(meta.stats.bbox_max_mm.map((v) => Math.round(v * 1000) / 1000)).toEqual([100, 40, 40]);
    expect(meta.stats.triangles).toBeGreaterThan(12);
    expect(meta.parts.children[0].children.map((c) => c.meshes)).toEqual([[0], [1]]);
    expect(meta.materials).toEqual([
      { name: '#cccccc', color: [0.8, 0.8, 0.8], parts: 2, triangles: meta.stats.triangles },
    ]);

    const again = await upload({ name: 'copy.stp', bytes: plate });
    expect(again).toMatchObject({
      status: 200,
      body: { hash: result.hash, cached: true, metadata: { stats: { triangles: meta.stats.triangles } } },
    });

    const res = await fetch(`${t.url}${result.glb_url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('model/gltf-binary');
    expect(res.headers.get('etag')).toBe(`"${result.hash}"`);
    const glb = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(glb.subarray(0, 4)).toString('latin1')).toBe('glTF');
    expect(glb.byteLength).toBe(meta.stats.glb_bytes);
    const report = await validator.validateBytes(glb);
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages.slice(0, 3))).toBe(0);
    const back = await readBack(glb);
    expect(back).toMatchObject({ meshes: 2, scale: [0.001, 0.001, 0.001] });
    expect(back.max.map((v) => Math.round(v * 1e4) / 1e4)).toEqual([0.1, 0.04, 0.04]);
    const again304 = await fetch(`${t.url}${result.glb_url}`, { headers: { 'if-none-match': `"${result.hash}"` } });
    expect(again304.status).toBe(304);
  }, 90_000); // the first conversion starts the worker thread and the reader (cold wasm)

  it('converts an IGES file (six NURBS patches of a 40 x 20 x 10 box)', async () => {
    const iges = igesBox(40, 20, 10);
    const r = await upload({ name: 'box.igs', bytes: iges });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      hash: sha(iges),
      cached: false,
      metadata: { stats: { format: 'iges', parts: 6, triangles: 12, bbox_max_mm: [40, 20, 10] } },
    });
    const glb = new Uint8Array(await (await fetch(`${t.url}${r.body.glb_url}`)).arrayBuffer());
    expect((await validator.validateBytes(glb)).issues.numErrors).toBe(0);
  });

  it('keeps the part names and colours of a STEP assembly as node names and materials', async () => {
    const step = await namedColouredStep();
    const r = await upload({ name: 'assembly.step', bytes: step });
    expect(r.status).toBe(200);
    const meta = ConversionMetadataSchema.parse(r.body.metadata);
    expect(meta.parts.children.map((c) => c.name)).toEqual(['plate', 'pin']);
    expect(meta.materials.map((m) => [m.name, m.color, m.parts])).toEqual([
      ['#ff0000', [1, 0, 0], 1],
      ['#00ff00', [0, 1, 0], 1],
    ]);
    const doc = await new NodeIO().readBinary(
      new Uint8Array(await (await fetch(`${t.url}${r.body.glb_url}`)).arrayBuffer()),
    );
    expect(
      doc
        .getRoot()
        .listMaterials()
        .map((m) => m.getBaseColorFactor()),
    ).toEqual([
      [1, 0, 0, 1],
      [0, 1, 0, 1],
    ]);
    expect(
      doc
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    ).toContain('pin');
  }, 60_000);

  it('answers 422 naming the problem: no file, a file under another field, not STEP/IGES, content not matching, unreadable', async () => {
    const none = await upload();
    expect(none.status).toBe(422);
    expect(error(none.body).message).toContain('the form has no file');
    expect((await upload({ name: 'plate.step', bytes: plate }, 'model')).status).toBe(422);
    const txt = await upload({ name: 'notes.txt', bytes: 'hello' });
    expect([txt.status, error(txt.body).message]).toEqual([
      422,
      '"notes.txt" is not a STEP or IGES file (expected .step, .stp, .iges or .igs)',
    ]);
    const fake = await upload({ name: 'fake.step', bytes: 'solid cube\nendsolid\n' });
    expect([fake.status, error(fake.body).message]).toEqual([
      422,
      '"fake.step" is not a STEP file (no ISO-10303-21 header)',
    ]);
    const swapped = await upload({ name: 'box.step', bytes: igesBox(1, 1, 1) });
    expect(error(swapped.body).message).toContain('it looks like IGES');
    const broken = await upload({ name: 'broken.step', bytes: 'ISO-10303-21;\nHEADER;\nthis is not step\n' });
    expect(broken.status).toBe(422);
    expect(error(broken.body)).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('STEP') });
  });

  it('answers 413 with the error body over the upload limit, and 415 to a JSON body', async () => {
    const big = await upload({
      name: 'big.step',
      bytes: Buffer.concat([Buffer.from('ISO-10303-21;\n'), Buffer.alloc(UPLOAD_LIMIT + 10, 0x20)]),
    });
    expect(big.status).toBe(413);
    expect(error(big.body)).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining(String(UPLOAD_LIMIT)),
    });
    const json = await fetch(`${t.url}/v1/convert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect(error(await json.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 404 with the error body for a GLB never converted', async () => {
    const res = await fetch(`${t.url}/v1/convert/${'0'.repeat(64)}.glb`);
    expect(res.status).toBe(404);
    expect(error(await res.json()).code).toBe('NOT_FOUND');
    expect((await fetch(`${t.url}/v1/convert/not-a-hash.glb`)).status).toBe(404);
  });
});

describe('GET /v1/twin/nodes/{id}/model', () => {
  it('serves the committed STEP of a cad_model node as GLB, converted once and shared with /v1/convert', async () => {
    const project = (
      (await (
        await fetch(`${t.url}/v1/projects`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"name":"model"}',
        })
      ).json()) as { id: string }
    ).id;
    const w = await okData(
      callTool(t.node.broker, 'twin.commit_geometry', {
        project_id: project,
        name: 'Ring',
        step_base64: ring.toString('base64'),
      }),
    );
    const first = await fetch(`${t.url}/v1/twin/nodes/${w.node_id}/model`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('model/gltf-binary');
    expect(first.headers.get('x-conversion-cached')).toBe('false');
    expect(first.headers.get('etag')).toBe(`"${sha(ring)}"`);
    const glb = new Uint8Array(await first.arrayBuffer());
    expect((await validator.validateBytes(glb)).issues.numErrors).toBe(0);
    expect((await readBack(glb)).max.map((v) => Math.round(v * 1e4) / 1e4)).toEqual([0.024, 0.024, 0.004]);
    const second = await fetch(`${t.url}/v1/twin/nodes/${w.node_id}/model`);
    expect(second.headers.get('x-conversion-cached')).toBe('true');
    expect((await upload({ name: 'ring.step', bytes: ring })).body).toMatchObject({ hash: sha(ring), cached: true });

    const cs = await okData(
      callTool(t.node.broker, 'twin.record_constraint_set', {
        project_id: project,
        name: 'Limits',
        constraints: [{ metric: 'mass_kg', limit: 1, unit: 'kg' }],
      }),
    );
    const noFile = await fetch(`${t.url}/v1/twin/nodes/${cs.node_id}/model`);
    expect(noFile.status).toBe(404);
    expect(error(await noFile.json()).message).toContain('has no model file');
    const unknown = await fetch(`${t.url}/v1/twin/nodes/no-such-node/model`);
    expect(unknown.status).toBe(404);
    expect(error(await unknown.json()).code).toBe('NOT_FOUND');
  });
});
