import fs from 'node:fs';
import { InpError, parseInp, VOLUME_TYPES, type InpMesh } from './inp-parse.ts';
import type { NamedFacesInput, TaskFailure } from './schemas.ts';
import { FACES } from './surface.ts';

type Vec3 = [number, number, number];

/** One named B-rep face of a meshed STEP (SPEC rule 9): where it is, how big, which way it faces (outward). */
export interface SurfaceSet {
  bbox_mm: { min: Vec3; max: Vec3 };
  centroid_mm: Vec3;
  area_mm2: number;
  /** Area-weighted mean outward unit normal; null when the face turns too much to have one (a full cylinder). */
  normal: Vec3 | null;
  planar: boolean;
  node_count: number;
}

/** The naming of a meshed part, and counts of the solver mesh written beside it. */
export interface NamedFaces {
  ok: true;
  surface_sets: Record<string, SurfaceSet>;
  mesh_bbox_mm: { min: Vec3; max: Vec3 };
  nodes: number;
  elements: number;
  element_types: Record<string, number>;
}

const FACE_SET = /^FACE(\d+)$/;

/**
 * Names the faces of a gmsh mesh made with one physical surface `Face<n>` per B-rep face: area, centroid and bounds from
 * the face's surface triangles, the normal wound away from the volume element behind each triangle. With `meshPath`,
 * also writes the solver mesh: nodes, volume elements and one node set per face (surface elements left out).
 */
export function namedFaces(input: NamedFacesInput): NamedFaces | TaskFailure {
  let mesh: InpMesh;
  try {
    mesh = parseInp(fs.readFileSync(input.rawMeshPath, 'latin1'), 'gmsh mesh');
  } catch (err) {
    return {
      ok: false,
      kind: 'tool_error',
      message: err instanceof InpError ? err.message : `the gmsh mesh cannot be read: ${(err as Error).message}`,
    };
  }
  const xyz = (id: number): Vec3 => {
    const i = mesh.indexOf.get(id)!;
    return [mesh.coords[3 * i], mesh.coords[3 * i + 1], mesh.coords[3 * i + 2]];
  };
  const surfaceById = new Map<number, number[]>();
  for (const s of Object.values(mesh.stripped)) for (const [id, nodes] of s.byId) surfaceById.set(id, nodes);
  // Volume element centroid behind every triangle face (sorted corner key).
  const behind = new Map<string, Vec3>();
  for (const e of mesh.elements) {
    const corners = e.nodes.slice(0, VOLUME_TYPES[e.type].corners);
    if (corners.length !== 4) continue;
    const c = corners
      .map(xyz)
      .reduce((a, p) => [a[0] + p[0] / 4, a[1] + p[1] / 4, a[2] + p[2] / 4] as Vec3, [0, 0, 0] as Vec3);
    for (const f of FACES.tet)
      behind.set(
        f
          .map((k) => corners[k])
          .sort((a, b) => a - b)
          .join(','),
        c,
      );
  }
  const surface_sets: Record<string, SurfaceSet> = {};
  const names = [...mesh.elsets.keys()]
    .filter((n) => FACE_SET.test(n))
    .sort((a, b) => Number(FACE_SET.exec(a)![1]) - Number(FACE_SET.exec(b)![1]));
  for (const setName of names) {
    const tris = mesh.elsets
      .get(setName)!
      .map((id) => surfaceById.get(id))
      .filter((n): n is number[] => Boolean(n));
    if (!tris.length) continue;
    let area = 0;
    const centroid: Vec3 = [0, 0, 0];
    const normal: Vec3 = [0, 0, 0];
    const unit: Vec3[] = [];
    for (const t of tris) {
      const [a, b, c] = t.slice(0, 3).map(xyz);
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      let n: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const twice = Math.hypot(...n);
      if (twice === 0) continue;
      const mid: Vec3 = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
      const inside = behind.get(
        t
          .slice(0, 3)
          .sort((p, q) => p - q)
          .join(','),
      );
      if (inside && n[0] * (mid[0] - inside[0]) + n[1] * (mid[1] - inside[1]) + n[2] * (mid[2] - inside[2]) < 0)
        n = [-n[0], -n[1], -n[2]];
      const w = twice / 2;
      area += w;
      for (let k = 0; k < 3; k++) {
        centroid[k] += mid[k] * w;
        normal[k] += n[k] / 2;
      }
      unit.push([n[0] / twice, n[1] / twice, n[2] / twice]);
    }
    const nodes = mesh.nsets.get(setName) ?? [...new Set(tris.flat())];
    const nl = Math.hypot(...normal);
    const mean: Vec3 | null = area > 0 && nl / area > 0.3 ? (normal.map((x) => x / nl) as Vec3) : null;
    surface_sets[`Face${FACE_SET.exec(setName)![1]}`] = {
      bbox_mm: bounds(nodes.map(xyz)),
      centroid_mm: centroid.map((x) => (area > 0 ? x / area : 0)) as Vec3,
      area_mm2: area,
      normal: mean,
      planar: mean !== null && unit.every((u) => u[0] * mean[0] + u[1] * mean[1] + u[2] * mean[2] > 0.9998),
      node_count: nodes.length,
    };
  }
  const element_types: Record<string, number> = {};
  for (const e of mesh.elements) element_types[e.type] = (element_types[e.type] ?? 0) + 1;
  if (input.meshPath) writeSolverMesh(mesh, names, input.meshPath);
  return {
    ok: true,
    surface_sets,
    mesh_bbox_mm: bounds(Array.from(mesh.nodeIds, xyz)),
    nodes: mesh.nodeIds.length,
    elements: mesh.elements.length,
    element_types,
  };
}

function bounds(points: Vec3[]): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of points)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k]);
      max[k] = Math.max(max[k], p[k]);
    }
  return { min, max };
}

/** Nodes, volume elements (one block per type and body) and the face node sets, as CalculiX reads them. */
function writeSolverMesh(mesh: InpMesh, faceSets: string[], path: string): void {
  const out = [
    '** solver mesh: second-order tetrahedra from gmsh; one node set per B-rep face (Face<n>)',
    '*NODE, NSET=NALL',
  ];
  for (let i = 0; i < mesh.nodeIds.length; i++)
    out.push(`${mesh.nodeIds[i]}, ${mesh.coords[3 * i]}, ${mesh.coords[3 * i + 1]}, ${mesh.coords[3 * i + 2]}`);
  const groups = new Map<string, string[]>();
  for (const e of mesh.elements) {
    const key = `*ELEMENT, TYPE=${e.type}, ELSET=${e.body}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push([e.id, ...e.nodes].join(', '));
  }
  for (const [card, lines] of groups) out.push(card, ...lines);
  for (const s of faceSets) {
    const ids = mesh.nsets.get(s) ?? [];
    out.push(`*NSET, NSET=Face${FACE_SET.exec(s)![1]}`);
    for (let k = 0; k < ids.length; k += 10) out.push(ids.slice(k, k + 10).join(', ') + ',');
  }
  fs.writeFileSync(path, out.join('\n') + '\n');
}
