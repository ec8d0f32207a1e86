import { sortTriangles, type SurfaceMesh } from './surface-mesh.ts';

/**
 * Uniform-grid vertex clustering (notes/solver.md "Decimation"): every vertex falls in a cubic cell of `cell` mm; a
 * cell becomes one vertex at the mean position with the mean displacement and values. Triangles whose corners land in
 * fewer than three cells, and repeats of a triangle already kept, are dropped; clusters no triangle uses are dropped;
 * clusters are numbered in cell order (smaller gzip than first-use order). Ranges and peaks are not touched here: they
 * come from the full field.
 */
export function clusterVertices(m: SurfaceMesh, cell: number): SurfaceMesh {
  const p = m.positions;
  const V = p.length / 3;
  let mx = Infinity;
  let my = Infinity;
  let mz = Infinity;
  for (let i = 0; i < V; i++) {
    mx = Math.min(mx, p[3 * i]);
    my = Math.min(my, p[3 * i + 1]);
    mz = Math.min(mz, p[3 * i + 2]);
  }
  const cellOf = new Int32Array(V);
  const keyOf: number[] = [];
  const byKey = new Map<number, number>();
  for (let i = 0; i < V; i++) {
    const ix = Math.floor((p[3 * i] - mx) / cell);
    const iy = Math.floor((p[3 * i + 1] - my) / cell);
    const iz = Math.floor((p[3 * i + 2] - mz) / cell);
    const key = (ix * 131_072 + iy) * 131_072 + iz;
    let c = byKey.get(key);
    if (c === undefined) {
      c = keyOf.length;
      byKey.set(key, c);
      keyOf.push(key);
    }
    cellOf[i] = c;
  }
  const C = keyOf.length;
  // Triangles over clusters: degenerate ones and repeats dropped.
  const kept: number[] = [];
  const seen = new Set<number | string>();
  const pack = C * C * C < Number.MAX_SAFE_INTEGER;
  for (let t = 0; t < m.tris.length; t += 3) {
    const a = cellOf[m.tris[t]];
    const b = cellOf[m.tris[t + 1]];
    const c = cellOf[m.tris[t + 2]];
    if (a === b || b === c || a === c) continue;
    const lo = Math.min(a, b, c);
    const hi = Math.max(a, b, c);
    const mid = a + b + c - lo - hi;
    const key = pack ? (lo * C + mid) * C + hi : `${lo},${mid},${hi}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(a, b, c);
  }
  // Used clusters in cell order.
  const used = new Uint8Array(C);
  for (const c of kept) used[c] = 1;
  const order: number[] = [];
  for (let c = 0; c < C; c++) if (used[c]) order.push(c);
  order.sort((x, y) => keyOf[x] - keyOf[y]);
  const slot = new Int32Array(C).fill(-1);
  order.forEach((c, k) => (slot[c] = k));
  const K = order.length;
  const count = new Float64Array(K);
  const mean = (src: Float64Array, width: number) => {
    const out = new Float64Array(K * width);
    for (let i = 0; i < V; i++) {
      const k = slot[cellOf[i]];
      if (k < 0) continue;
      for (let w = 0; w < width; w++) out[k * width + w] += src[i * width + w];
    }
    for (let k = 0; k < K; k++) for (let w = 0; w < width; w++) out[k * width + w] /= count[k];
    return out;
  };
  for (let i = 0; i < V; i++) {
    const k = slot[cellOf[i]];
    if (k >= 0) count[k]++;
  }
  const tris = new Int32Array(kept.length);
  for (let i = 0; i < kept.length; i++) tris[i] = slot[kept[i]];
  return {
    positions: mean(p, 3),
    tris: sortTriangles(tris, K),
    displacement: m.displacement ? mean(m.displacement, 3) : null,
    fields: m.fields.map((f) => ({ ...f, values: mean(f.values, 1) })),
  };
}
