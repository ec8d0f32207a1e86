import { createRequire } from 'node:module';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { buildGlb } from '../../../workers/convert/glb.ts';
import type { OcctMesh } from '../../../workers/convert/occt.ts';
import { formatOfContent, detectFormat } from '../../../gateway/convert/sniff.ts';

type Report = { issues: { numErrors: number; numWarnings: number } };
const validator = createRequire(import.meta.url)('gltf-validator') as { validateBytes(b: Uint8Array): Promise<Report> };

/** A unit square of two triangles (face 0 and face 1), lying in z = 0 (mm). */
const square = (faceColors: ([number, number, number] | null)[], color?: [number, number, number]): OcctMesh => ({
  name: 'square',
  ...(color ? { color } : {}),
  brep_faces: faceColors.map((c, k) => ({ first: k, last: k, color: c })),
  attributes: {
    position: { array: [0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0] },
    normal: { array: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1] },
  },
  index: { array: [0, 1, 2, 0, 2, 3] },
});

describe('GLB build', () => {
  it('makes one primitive per face colour sharing the vertex accessors, one material per colour', async () => {
    const root = {
      name: 'asm',
      meshes: [],
      children: [
        { name: 'tile', meshes: [0], children: [] },
        { name: 'twin tiles', meshes: [1, 2], children: [] },
      ],
    };
    const out = await buildGlb(root, [
      square([[1, 0, 0], null], [0, 0, 1]),
      square([null, null]),
      square([null, null], [0, 0, 1]),
    ]);
    expect(out.counts).toMatchObject({
      parts: 3,
      meshes: 3,
      materials: 3,
      vertices: 12,
      triangles: 6,
      bbox_min_mm: [0, 0, 0],
      bbox_max_mm: [10, 10, 0],
    });
    expect(out.materials).toEqual([
      { name: '#ff0000', color: [1, 0, 0], parts: 1, triangles: 1 },
      { name: '#0000ff', color: [0, 0, 1], parts: 2, triangles: 3 },
      { name: '#cccccc', color: [0.8, 0.8, 0.8], parts: 1, triangles: 2 },
    ]);
    expect(out.parts).toEqual({
      name: 'asm',
      meshes: [],
      children: [
        { name: 'tile', meshes: [0], children: [] },
        { name: 'twin tiles', meshes: [1, 2], children: [] },
      ],
    });
    expect((await validator.validateBytes(out.glb)).issues.numErrors).toBe(0);
    const doc = await new NodeIO().readBinary(out.glb);
    const [first] = doc.getRoot().listMeshes();
    const prims = first.listPrimitives();
    expect(prims).toHaveLength(2);
    expect(prims[0].getAttribute('POSITION')).toBe(prims[1].getAttribute('POSITION'));
    expect(prims.map((p) => p.getMaterial()!.getName())).toEqual(['#ff0000', '#0000ff']);
    expect(doc.getRoot().listScenes()[0].listChildren()[0].getScale()).toEqual([0.001, 0.001, 0.001]);
    expect(
      doc
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    ).toEqual(['asm', 'tile', 'twin tiles', 'square', 'square']);
  });
});

describe('format sniffing', () => {
  it('tells STEP and IGES by content and names what is wrong', () => {
    expect(formatOfContent(Buffer.from('  ISO-10303-21;\nHEADER;'))).toBe('step');
    expect(formatOfContent(Buffer.from(`${'x'.padEnd(72)}S      1\n`))).toBe('iges');
    expect(formatOfContent(Buffer.from('solid x\n'))).toBeUndefined();
    expect(detectFormat('a.STP', Buffer.from('ISO-10303-21;'))).toEqual({ format: 'step' });
    expect(detectFormat('a.iges', Buffer.from('ISO-10303-21;'))).toEqual({
      problem: '"a.iges" is not an IGES file (no IGES Start section (column 73 "S"); it looks like STEP)',
    });
    expect(detectFormat('a.stl', Buffer.from('solid'))).toMatchObject({
      problem: expect.stringContaining('not a STEP or IGES file'),
    });
  });
});
