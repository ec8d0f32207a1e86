import fs from 'node:fs';
import { InpError, parseInp, VOLUME_TYPES } from './inp-parse.ts';
import type { MeshQualityInput, TaskFailure } from './schemas.ts';

/** Mesh quality report of `solver.validate_mesh`. */
export interface MeshQuality {
  ok: true;
  valid: boolean;
  nodes: number;
  elements: number;
  element_types: Record<string, number>;
  stripped_elements: Record<string, number>;
  aspect_ratio: { max: number; mean: number; p99: number; worst_element: number; measure: string };
  max_aspect_ratio: number;
  elements_over_limit: number;
  inverted_elements: number;
  inverted_examples: number[];
  unused_nodes: number;
  node_sets: Record<string, number>;
  bodies: string[];
  bbox_mm: { min: number[]; max: number[] };
  issues: string[];
}

type P = [number, number, number];
const sub = (a: P, b: P): P => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: P, b: P): P => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: P, b: P) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: P) => Math.hypot(a[0], a[1], a[2]);

/** Signed volume of tet abcd: positive for CalculiX's ordering (face 1-2-3 seen counter-clockwise from node 4's side... inverted otherwise). */
const tetVolume = (a: P, b: P, c: P, d: P) => dot(cross(sub(b, a), sub(c, a)), sub(d, a)) / 6;

/** Tet shape measure: longest edge / (2√6 · inradius); 1.0 for the regular tetrahedron (notes/solver.md). */
function tetAspect(p: P[]): number {
  const [a, b, c, d] = p;
  const edges = [sub(b, a), sub(c, a), sub(d, a), sub(c, b), sub(d, b), sub(d, c)].map(len);
  const faces = [
    [a, b, c],
    [a, b, d],
    [a, c, d],
    [b, c, d],
  ].map(([x, y, z]) => len(cross(sub(y, x), sub(z, x))) / 2);
  const area = faces.reduce((s, f) => s + f, 0);
  const r = (3 * Math.abs(tetVolume(a, b, c, d))) / area;
  return r > 0 ? Math.max(...edges) / (2 * Math.sqrt(6) * r) : Infinity;
}

const EDGES: Record<number, number[][]> = {
  6: [
    [0, 1],
    [1, 2],
    [2, 0],
    [3, 4],
    [4, 5],
    [5, 3],
    [0, 3],
    [1, 4],
    [2, 5],
  ],
  8: [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
    [4, 5],
    [5, 6],
    [6, 7],
    [7, 4],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
  ],
};

/** Edge ratio (longest / shortest edge) for hexahedra and wedges. */
function edgeRatio(p: P[]): number {
  const l = EDGES[p.length].map(([i, j]) => len(sub(p[i], p[j])));
  const lo = Math.min(...l);
  return lo > 0 ? Math.max(...l) / lo : Infinity;
}

/** Tets a hexahedron (8 corners) or wedge (6) splits into, for a volume sign check. */
const SPLIT: Record<number, number[][]> = {
  4: [[0, 1, 2, 3]],
  6: [
    [0, 1, 2, 3],
    [1, 2, 3, 4],
    [2, 3, 4, 5],
  ],
  8: [
    [0, 1, 3, 4],
    [1, 2, 3, 6],
    [1, 3, 4, 6],
    [1, 4, 5, 6],
    [3, 4, 6, 7],
  ],
};

/**
 * `solver.validate_mesh`: element types, shape measure per element (tets: longest edge over 2√6 · inradius, 1.0 for
 * a regular tet; hex/wedge: edge ratio), inverted elements (non-positive corner volume), unused nodes, sets. Valid
 * when nothing is inverted and no element exceeds `maxAspectRatio`.
 */
export function meshQuality(input: Required<MeshQualityInput>): MeshQuality | TaskFailure {
  let mesh;
  try {
    mesh = parseInp(fs.readFileSync(input.meshPath, 'latin1'));
  } catch (err) {
    if (err instanceof InpError) return { ok: false, kind: 'tool_error', message: err.message };
    return { ok: false, kind: 'invalid_arguments', message: `mesh_file cannot be read: ${(err as Error).message}` };
  }
  const at = (id: number): P => {
    const i = mesh.indexOf.get(id)!;
    return [mesh.coords[3 * i], mesh.coords[3 * i + 1], mesh.coords[3 * i + 2]];
  };
  const used = new Set<number>();
  const ratios = new Float64Array(mesh.elements.length);
  const element_types: Record<string, number> = {};
  const inverted: number[] = [];
  let worst = 0;
  mesh.elements.forEach((e, k) => {
    element_types[e.type] = (element_types[e.type] ?? 0) + 1;
    for (const n of e.nodes) used.add(n);
    const corners = e.nodes.slice(0, VOLUME_TYPES[e.type].corners).map(at);
    ratios[k] = corners.length === 4 ? tetAspect(corners) : edgeRatio(corners);
    if (ratios[k] > ratios[worst]) worst = k;
    const vol = SPLIT[corners.length].reduce(
      (s, [a, b, c, d]) => s + tetVolume(corners[a], corners[b], corners[c], corners[d]),
      0,
    );
    if (!(vol > 0)) inverted.push(e.id);
  });
  const sorted = Float64Array.from(ratios).sort();
  const mean = sorted.reduce((s, r) => s + r, 0) / sorted.length;
  const over = sorted.filter((r) => r > input.maxAspectRatio).length;
  const issues: string[] = [];
  if (inverted.length)
    issues.push(
      `${inverted.length} element(s) have a non-positive volume (inverted or degenerate), e.g. ${inverted.slice(0, 5).join(', ')}`,
    );
  if (over)
    issues.push(
      `${over} element(s) exceed the aspect ratio limit ${input.maxAspectRatio} (worst ${sorted[sorted.length - 1].toPrecision(4)} at element ${mesh.elements[worst].id})`,
    );
  const stripped = Object.fromEntries(Object.entries(mesh.stripped).map(([t, s]) => [t, s.count]));
  if (Object.keys(stripped).length)
    issues.push(
      `non-volume elements are left out of solver decks: ${Object.entries(stripped)
        .map(([t, c]) => `${c} ${t}`)
        .join(', ')}`,
    );
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.coords.length; i++) {
    min[i % 3] = Math.min(min[i % 3], mesh.coords[i]);
    max[i % 3] = Math.max(max[i % 3], mesh.coords[i]);
  }
  const tets = mesh.elements.every((e) => VOLUME_TYPES[e.type].corners === 4);
  return {
    ok: true,
    valid: inverted.length === 0 && over === 0,
    nodes: mesh.nodeIds.length,
    elements: mesh.elements.length,
    element_types,
    stripped_elements: stripped,
    aspect_ratio: {
      max: sorted[sorted.length - 1],
      mean,
      p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))],
      worst_element: mesh.elements[worst].id,
      measure: tets
        ? 'longest edge / (2√6 · inradius); 1.0 = regular tetrahedron'
        : 'tets: longest edge / (2√6 · inradius); hexahedra and wedges: longest / shortest corner edge',
    },
    max_aspect_ratio: input.maxAspectRatio,
    elements_over_limit: over,
    inverted_elements: inverted.length,
    inverted_examples: inverted.slice(0, 10),
    unused_nodes: mesh.nodeIds.length - used.size,
    node_sets: Object.fromEntries([...mesh.nsets].map(([k, v]) => [k, v.length])),
    bodies: mesh.bodies,
    bbox_mm: { min, max },
    issues,
  };
}
