/** One per-vertex scalar of the payload with its full-field range and peak (SPEC "Result field payload", fields). */
export interface SurfaceField {
  key: 'von_mises' | 'displacement_magnitude' | 'temperature';
  label: string;
  unit: string;
  values: Float64Array;
  min: number;
  max: number;
  peak: { position: [number, number, number]; value: number };
}

/** The surface the viewer draws: compact vertices (3 per position), triangles over them, per-vertex data. */
export interface SurfaceMesh {
  positions: Float64Array;
  tris: Int32Array;
  displacement: Float64Array | null;
  fields: SurfaceField[];
}

/** Full-field data handed to the surface: per node, indexed like the `.frd` nodes. */
export interface NodalData {
  coords: Float64Array;
  displacement: Float64Array | null;
  fields: (Omit<SurfaceField, 'values'> & { values: Float64Array })[];
}

/**
 * Compacts outer triangles over node indices into a surface mesh. Vertices are ordered spatially (a grid of about
 * four mean edge lengths, then x, y, z) and triangles by their lowest vertex: both shrink the gzip bytes a lot
 * (notes/solver.md "Vertex order beats rounding").
 */
export function toSurfaceMesh(tris: Int32Array, nodal: NodalData): SurfaceMesh {
  const n = nodal.coords.length / 3;
  const slot = new Int32Array(n).fill(-1);
  const nodes: number[] = [];
  for (let i = 0; i < tris.length; i++) {
    const v = tris[i];
    if (slot[v] === -1) {
      slot[v] = nodes.length;
      nodes.push(v);
    }
  }
  const order = spatialOrder(Int32Array.from(nodes), nodal.coords, meanEdge(tris, nodal.coords) * 4);
  const V = order.length;
  for (let k = 0; k < V; k++) slot[order[k]] = k;
  const positions = gather(nodal.coords, order, 3);
  const displacement = nodal.displacement ? gather(nodal.displacement, order, 3) : null;
  const fields = nodal.fields.map((f) => ({ ...f, values: gather(f.values, order, 1) }));
  const local = new Int32Array(tris.length);
  for (let i = 0; i < tris.length; i++) local[i] = slot[tris[i]];
  return { positions, tris: sortTriangles(local, V), displacement, fields };
}

/** Rows `order[k]` of a `width`-wide table. */
export function gather(src: Float64Array, order: ArrayLike<number>, width: number): Float64Array {
  const out = new Float64Array(order.length * width);
  for (let k = 0; k < order.length; k++) for (let w = 0; w < width; w++) out[k * width + w] = src[order[k] * width + w];
  return out;
}

/** Mean edge length of a sample of triangles (node indices into `xyz`). */
export function meanEdge(tris: Int32Array, xyz: Float64Array): number {
  const step = Math.max(1, Math.floor(tris.length / 3 / 2000));
  let sum = 0;
  let count = 0;
  for (let t = 0; t < tris.length; t += 3 * step) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * tris[t + k];
      const b = 3 * tris[t + ((k + 1) % 3)];
      sum += Math.hypot(xyz[a] - xyz[b], xyz[a + 1] - xyz[b + 1], xyz[a + 2] - xyz[b + 2]);
      count++;
    }
  }
  return count ? sum / count : 1;
}

/** Indices `ids` sorted by grid cell (x-major cells of size `cell`), then x, y, z. */
export function spatialOrder(ids: Int32Array, xyz: Float64Array, cell: number): Int32Array {
  const c = cell > 0 && Number.isFinite(cell) ? cell : 1;
  let mx = Infinity;
  let my = Infinity;
  let mz = Infinity;
  for (const i of ids) {
    mx = Math.min(mx, xyz[3 * i]);
    my = Math.min(my, xyz[3 * i + 1]);
    mz = Math.min(mz, xyz[3 * i + 2]);
  }
  const keys = new Float64Array(xyz.length / 3);
  for (const i of ids) {
    const ix = Math.floor((xyz[3 * i] - mx) / c);
    const iy = Math.floor((xyz[3 * i + 1] - my) / c);
    const iz = Math.floor((xyz[3 * i + 2] - mz) / c);
    keys[i] = (ix * 65_536 + iy) * 65_536 + iz;
  }
  return ids
    .slice()
    .sort(
      (a, b) =>
        keys[a] - keys[b] ||
        xyz[3 * a] - xyz[3 * b] ||
        xyz[3 * a + 1] - xyz[3 * b + 1] ||
        xyz[3 * a + 2] - xyz[3 * b + 2] ||
        a - b,
    );
}

/** Rotates each triangle to start at its lowest vertex (winding kept) and sorts triangles by their vertices. */
export function sortTriangles(tris: Int32Array, V: number): Int32Array {
  const T = tris.length / 3;
  const r = new Int32Array(tris.length);
  for (let t = 0; t < T; t++) {
    const a = tris[3 * t];
    const b = tris[3 * t + 1];
    const c = tris[3 * t + 2];
    const k = a <= b && a <= c ? 0 : b <= c ? 1 : 2;
    r[3 * t] = k === 0 ? a : k === 1 ? b : c;
    r[3 * t + 1] = k === 0 ? b : k === 1 ? c : a;
    r[3 * t + 2] = k === 0 ? c : k === 1 ? a : b;
  }
  const idx = new Int32Array(T);
  for (let t = 0; t < T; t++) idx[t] = t;
  if (V * V * V < Number.MAX_SAFE_INTEGER) {
    const key = new Float64Array(T);
    for (let t = 0; t < T; t++) key[t] = (r[3 * t] * V + r[3 * t + 1]) * V + r[3 * t + 2];
    idx.sort((x, y) => key[x] - key[y]);
  } else {
    idx.sort((x, y) => r[3 * x] - r[3 * y] || r[3 * x + 1] - r[3 * y + 1] || r[3 * x + 2] - r[3 * y + 2]);
  }
  const out = new Int32Array(tris.length);
  for (let t = 0; t < T; t++) out.set(r.subarray(3 * idx[t], 3 * idx[t] + 3), 3 * t);
  return out;
}

/** Total area of a surface mesh's triangles (mm²). */
export function surfaceArea(m: Pick<SurfaceMesh, 'positions' | 'tris'>): number {
  const p = m.positions;
  let area = 0;
  for (let t = 0; t < m.tris.length; t += 3) {
    const a = 3 * m.tris[t];
    const b = 3 * m.tris[t + 1];
    const c = 3 * m.tris[t + 2];
    const ux = p[b] - p[a];
    const uy = p[b + 1] - p[a + 1];
    const uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a];
    const vy = p[c + 1] - p[a + 1];
    const vz = p[c + 2] - p[a + 2];
    area += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
  return area;
}
