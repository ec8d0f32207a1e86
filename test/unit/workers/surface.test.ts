import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SimFieldPayloadSchema } from '../../../contracts/simulation.ts';
import { buildField } from '../../../workers/simfield/field-task.ts';
import { parseFrd } from '../../../workers/simfield/frd-parse.ts';
import { toSurfaceMesh } from '../../../workers/simfield/surface-mesh.ts';
import { outerSurface } from '../../../workers/simfield/surface.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const surfaceOf = (file: string) => {
  const b = fs.readFileSync(`${SIM_FIXTURES}/${file}`);
  const f = parseFrd(file.endsWith('.gz') ? zlib.gunzipSync(b) : b);
  const tris = outerSurface({ types: f.elemTypes, offsets: f.elemOffsets, nodes: f.elemNodes }, f.coords).tris;
  return toSurfaceMesh(tris, { coords: f.coords, displacement: null, fields: [] });
};

/** Signed volume enclosed by the triangles (divergence theorem): positive when every triangle is wound outward. */
function enclosedVolume(p: Float64Array, t: Int32Array): number {
  let v = 0;
  for (let k = 0; k < t.length; k += 3) {
    const [a, b, c] = [3 * t[k], 3 * t[k + 1], 3 * t[k + 2]];
    v +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return v / 6;
}

/** Every edge of a closed, consistently wound surface is used once in each direction. */
function edgesPaired(t: Int32Array): boolean {
  const seen = new Map<string, number>();
  for (let k = 0; k < t.length; k += 3) for (let e = 0; e < 3; e++) seen.set(`${t[k + e]},${t[k + ((e + 1) % 3)]}`, 1);
  return [...seen.keys()].every((key) => seen.has(key.split(',').reverse().join(',')));
}

describe('outer surface of every element type (corner nodes, quads split, outward)', () => {
  it.each([
    ['etypes/box_tet4.frd', 126, 248, 2000],
    ['etypes/box_hex8.frd', 20, 36, 2000],
    ['etypes/box_hex20.frd', 20, 36, 2000],
    ['etypes/box_pe6.frd', 20, 36, 2000],
    ['etypes/box_pe15.frd', 20, 36, 2000],
    ['beam_coarse.frd', 176, 348, 40000],
    ['beam_medium.frd.gz', 2215, 4426, 40000],
  ])('%s: %i vertices, %i triangles, closed, enclosing %i mm³', (file, v, t, volume) => {
    const m = surfaceOf(file);
    expect([m.positions.length / 3, m.tris.length / 3]).toEqual([v, t]);
    expect(t).toBe(2 * v - 4);
    expect(enclosedVolume(m.positions, m.tris)).toBeCloseTo(volume, 6);
    expect(edgesPaired(m.tris)).toBe(true);
  });

  it('builds a valid payload for every element type, from the full field', () => {
    for (const t of ['tet4', 'hex8', 'hex20', 'pe6', 'pe15']) {
      const r = buildField({
        frdPath: `${SIM_FIXTURES}/etypes/box_${t}.frd`,
        outPath: null,
        capBytes: 1_500_000,
        fixtures: [],
        loads: [],
        bodies: [],
        probes: [],
      });
      if (!r.ok || !r.field.ok) throw new Error(JSON.stringify(r));
      const p = SimFieldPayloadSchema.parse(JSON.parse(zlib.gunzipSync(r.field.gz).toString('utf8')));
      expect(p.fields.von_mises!.max).toBe(Number(r.summary.von_mises!.max.toPrecision(4)));
      expect(p.bbox).toEqual({ min: [0, 0, 0], max: [40, 10, 5] });
    }
  });
});

describe('payload bytes', () => {
  it('are deterministic (gzip mtime 0, fixed level), so the SHA-256 is a stable ETag', () => {
    const make = () => {
      const r = buildField({
        frdPath: `${SIM_FIXTURES}/beam_coarse.frd`,
        outPath: null,
        capBytes: 1_500_000,
        fixtures: [],
        loads: [],
        bodies: [],
        probes: [],
      });
      if (!r.ok || !r.field.ok) throw new Error('no field');
      return Buffer.from(r.field.gz);
    };
    const a = make();
    expect(a.equals(make())).toBe(true);
    expect([...a.subarray(0, 8)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
  });

  it('decimate under a small cap: fewer vertices, within the cap, and the range and peak of the full field', () => {
    const r = buildField({
      frdPath: `${SIM_FIXTURES}/beam_coarse.frd`,
      outPath: null,
      capBytes: 2500,
      fixtures: [],
      loads: [],
      bodies: [],
      probes: [],
    });
    if (!r.ok || !r.field.ok) throw new Error(JSON.stringify(r));
    expect(r.field).toMatchObject({ decimated: true, sourceTriangleCount: 348 });
    expect(r.field.gz.length).toBeLessThanOrEqual(2500);
    const p = SimFieldPayloadSchema.parse(JSON.parse(zlib.gunzipSync(r.field.gz).toString('utf8')));
    expect(p.positions.length / 3).toBeLessThan(176);
    expect(p.fields.von_mises).toMatchObject({ max: 584.1, peak: { value: 584.1 } });
    const tooSmall = buildField({
      frdPath: `${SIM_FIXTURES}/beam_coarse.frd`,
      outPath: null,
      capBytes: 300,
      fixtures: [],
      loads: [],
      bodies: [],
      probes: [],
    });
    expect(tooSmall).toMatchObject({
      ok: true,
      field: { ok: false, error: expect.stringContaining('does not fit the 300-byte cap') },
    });
  });
});
