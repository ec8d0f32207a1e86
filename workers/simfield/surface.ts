import { FRD_TYPES } from './frd-parse.ts';

/** Faces of each volume type by corner index (the `S1..Sn` order of `*DFLUX`/`*DLOAD`; notes/solver.md). */
export const FACES: Record<string, number[][]> = {
  tet: [
    [0, 1, 2],
    [0, 3, 1],
    [1, 3, 2],
    [2, 3, 0],
  ],
  wedge: [
    [0, 1, 2],
    [3, 5, 4],
    [0, 3, 4, 1],
    [1, 4, 5, 2],
    [2, 5, 3, 0],
  ],
  hex: [
    [0, 1, 2, 3],
    [4, 7, 6, 5],
    [0, 4, 5, 1],
    [1, 5, 6, 2],
    [2, 6, 7, 3],
    [3, 7, 4, 0],
  ],
};

/** Face table of an `.frd` element type code, or undefined for 1D/2D codes. */
export function facesOfType(code: number): number[][] | undefined {
  const t = FRD_TYPES[code];
  if (!t?.volume) return undefined;
  return t.corners === 4 ? FACES.tet : t.corners === 6 ? FACES.wedge : FACES.hex;
}

/** Element connectivity in node indices: corners come first in every type. */
export interface Elements {
  types: Uint8Array;
  offsets: Int32Array;
  nodes: Int32Array;
}

/** The outer surface: triangles over node indices, wound outward, and how many there were before any simplification. */
export interface OuterSurface {
  /** Node indices, three per triangle. */
  tris: Int32Array;
}

/**
 * Outer surface of a volume mesh (SPEC rule 10): every face of every volume element on its corner nodes, keyed by its
 * sorted corners; a face no other element shares is outer. Quads are split only after the shared-face test (neighbours
 * may split along different diagonals); each face is wound away from its element's centroid.
 */
export function outerSurface(el: Elements, coords: Float64Array): OuterSurface {
  const E = el.types.length;
  // Flat face tables per type code: faces × 4 corner slots (-1 pads triangles).
  const tables: (Int8Array | null)[] = [];
  for (let code = 0; code <= 12; code++) {
    const faces = facesOfType(code);
    tables.push(faces ? Int8Array.from(faces.flatMap((f) => (f.length === 3 ? [...f, -1] : f))) : null);
  }
  let nf = 0;
  for (let e = 0; e < E; e++) nf += (tables[el.types[e]]?.length ?? 0) >> 2;
  const fElem = new Int32Array(nf);
  const fLocal = new Uint8Array(nf);
  const shared = new Uint8Array(nf);
  // Open addressing on the sorted corners, stored inline (a, b, c, d, face) so a probe touches one cache line.
  let H = 1;
  while (H < nf * 1.6) H <<= 1;
  const slots = new Int32Array(H * 5).fill(-1);
  const mask = H - 1;
  const nodes = el.nodes;
  let f = 0;
  for (let e = 0; e < E; e++) {
    const t = tables[el.types[e]];
    if (!t) continue;
    const o = el.offsets[e];
    for (let q = 0, l = 0; q < t.length; q += 4, l++, f++) {
      let a = nodes[o + t[q]];
      let b = nodes[o + t[q + 1]];
      let c = nodes[o + t[q + 2]];
      let d = t[q + 3] < 0 ? -1 : nodes[o + t[q + 3]];
      let x: number;
      if (a > b) ((x = a), (a = b), (b = x));
      if (b > c) ((x = b), (b = c), (c = x));
      if (a > b) ((x = a), (a = b), (b = x));
      if (d >= 0) {
        if (c > d) ((x = c), (c = d), (d = x));
        if (b > c) ((x = b), (b = c), (c = x));
        if (a > b) ((x = a), (a = b), (b = x));
      }
      fElem[f] = e;
      fLocal[f] = l;
      let h = (Math.imul(a, 73856093) ^ Math.imul(b, 19349663) ^ Math.imul(c, 83492791)) & mask;
      for (;;) {
        const k = h * 5;
        if (slots[k] === -1) {
          slots[k] = a;
          slots[k + 1] = b;
          slots[k + 2] = c;
          slots[k + 3] = d;
          slots[k + 4] = f;
          break;
        }
        if (slots[k] === a && slots[k + 1] === b && slots[k + 2] === c && slots[k + 3] === d) {
          shared[f] = 1;
          shared[slots[k + 4]] = 1;
          break;
        }
        h = (h + 1) & mask;
      }
    }
  }
  let outer = 0;
  for (let i = 0; i < nf; i++) if (!shared[i]) outer += tables[el.types[fElem[i]]]![4 * fLocal[i] + 3] < 0 ? 1 : 2;
  const tris = new Int32Array(outer * 3);
  let t = 0;
  const c = [0, 0, 0, 0];
  for (let i = 0; i < nf; i++) {
    if (shared[i]) continue;
    const e = fElem[i];
    const table = tables[el.types[e]]!;
    const q = 4 * fLocal[i];
    const n = table[q + 3] < 0 ? 3 : 4;
    const o = el.offsets[e];
    for (let k = 0; k < n; k++) c[k] = nodes[o + table[q + k]];
    const flip = !outward(el, e, coords, c, n);
    tris[t++] = c[0];
    tris[t++] = flip ? c[2] : c[1];
    tris[t++] = flip ? c[1] : c[2];
    if (n === 4) {
      tris[t++] = c[0];
      tris[t++] = flip ? c[3] : c[2];
      tris[t++] = flip ? c[2] : c[3];
    }
  }
  return { tris };
}

/** Whether the face (corners `c`, in table order) already points away from its element's corner centroid. */
function outward(el: Elements, e: number, xyz: Float64Array, c: number[], n: number): boolean {
  const corners = FRD_TYPES[el.types[e]].corners;
  const o = el.offsets[e];
  let ex = 0;
  let ey = 0;
  let ez = 0;
  for (let k = 0; k < corners; k++) {
    const p = 3 * el.nodes[o + k];
    ex += xyz[p];
    ey += xyz[p + 1];
    ez += xyz[p + 2];
  }
  ex /= corners;
  ey /= corners;
  ez /= corners;
  // Newell normal of the polygon and its centroid.
  let nx = 0;
  let ny = 0;
  let nz = 0;
  let fx = 0;
  let fy = 0;
  let fz = 0;
  for (let k = 0; k < n; k++) {
    const p = 3 * c[k];
    const q = 3 * c[(k + 1) % n];
    nx += (xyz[p + 1] - xyz[q + 1]) * (xyz[p + 2] + xyz[q + 2]);
    ny += (xyz[p + 2] - xyz[q + 2]) * (xyz[p] + xyz[q]);
    nz += (xyz[p] - xyz[q]) * (xyz[p + 1] + xyz[q + 1]);
    fx += xyz[p];
    fy += xyz[p + 1];
    fz += xyz[p + 2];
  }
  return nx * (fx / n - ex) + ny * (fy / n - ey) + nz * (fz / n - ez) >= 0;
}
