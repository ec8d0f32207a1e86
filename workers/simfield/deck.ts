import fs from 'node:fs';
import { InpError, parseInp, VOLUME_TYPES, type InpMesh } from './inp-parse.ts';
import type { PrepareDeckInput, TaskFailure } from './schemas.ts';
import { FACES } from './surface.ts';

type Input = Required<PrepareDeckInput>;
type Vec3 = [number, number, number];
type Box = { min: Vec3; max: Vec3 };

/** What the deck was built from: counts, sets, warnings, and node/element ids the field needs for markers and probes. */
export interface PreparedDeck {
  ok: true;
  nodes: number;
  elements: number;
  element_types: Record<string, number>;
  stripped: Record<string, number>;
  bodies: { name: string; elementIds: Int32Array }[];
  bbox: Box;
  sets: Record<string, { nodes: number; bbox: Box }>;
  fixedNodeIds: Int32Array;
  loadNodeIds: Int32Array;
  /** Thermal: how the power went in (faces with a uniform flux, or an equal share per node). */
  heat?: { faces: number; area_mm2: number; flux_mw_mm2: number } | { nodes: number; per_node_mw: number };
  warnings: string[];
}

/** A number as ccx reads it: its fields hold 20 characters, so 12 significant digits (`2.6999999999999998E-9` is refused). */
const num = (x: number) => String(Number(x.toPrecision(12)));
const name = (s: string) =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9_.-]/g, '_')
    .slice(0, 80);

/**
 * Builds the CalculiX deck from a mesh plus a load case (notes/solver.md "Deck"): nodes and volume elements only,
 * the sets used, the material, one solid section per body, and the step. Forces are split equally over the load set's
 * nodes; thermal power goes in as a uniform flux over the source set's element faces (an equal nodal share when the set
 * covers no face). Refusals come back as `TaskFailure`.
 */
export function prepareDeck(input: Input): PreparedDeck | TaskFailure {
  let mesh: InpMesh;
  try {
    mesh = parseInp(fs.readFileSync(input.meshPath, 'latin1'));
  } catch (err) {
    if (err instanceof InpError) return { ok: false, kind: 'tool_error', message: err.message };
    return { ok: false, kind: 'invalid_arguments', message: `mesh_file cannot be read: ${(err as Error).message}` };
  }
  const n = mesh.nodeIds.length;
  if (n > input.maxNodes) {
    return {
      ok: false,
      kind: 'tool_error',
      message: `the mesh has ${n} nodes; the solver's memory limit allows about ${input.maxNodes} (SPOOLES memory grows ~equations^1.3): use a larger element size, or raise SERVICE_SOLVER_MAX_NODES with the adapter's memory limit`,
    };
  }
  const set = (arg: string, wanted: string): number[] | TaskFailure => {
    const ids = mesh.nsets.get(wanted.toUpperCase());
    if (ids?.length) return ids;
    const known = [...mesh.nsets.keys()].filter((k) => k !== 'NALL');
    return {
      ok: false,
      kind: 'invalid_arguments',
      message: `${arg} ${wanted} is ${ids ? 'empty' : 'not a node set of the mesh'}; the mesh has ${known.length ? known.join(', ') : 'no node sets'}`,
    };
  };
  const thermal = input.analysis === 'thermal';
  const fixed = set(thermal ? 'sink_node_set' : 'fixed_node_set', input.fixedSet);
  if (!Array.isArray(fixed)) return fixed;
  let load: number[] = [];
  if (input.loadSet) {
    const l = set(thermal ? 'heat_source_node_set' : 'load_node_set', input.loadSet);
    if (!Array.isArray(l)) return l;
    load = l;
  }
  const bbox = boxOf(mesh, mesh.nodeIds);
  const longest = Math.max(...[0, 1, 2].map((k) => bbox.max[k] - bbox.min[k]));
  const warnings: string[] = [];
  const sets: PreparedDeck['sets'] = {};
  for (const [arg, setName, ids] of [
    [thermal ? 'sink_node_set' : 'fixed_node_set', input.fixedSet, fixed],
    [thermal ? 'heat_source_node_set' : 'load_node_set', input.loadSet, load],
  ] as const) {
    if (!setName || !ids.length) continue;
    for (const id of ids)
      if (!mesh.indexOf.has(id))
        return {
          ok: false,
          kind: 'tool_error',
          message: `node set ${setName} names node ${id}, which no *NODE card defines`,
        };
    const b = boxOf(mesh, ids);
    sets[setName.toUpperCase()] = { nodes: ids.length, bbox: b };
    const span = Math.max(...[0, 1, 2].map((k) => b.max[k] - b.min[k]));
    if (span > longest / 2)
      warnings.push(
        `${arg} ${setName} spans ${span.toPrecision(4)} mm, more than half the part's longest axis (${longest.toPrecision(4)} mm): check it is the face you meant`,
      );
  }
  const strippedCounts = Object.fromEntries(Object.entries(mesh.stripped).map(([t, s]) => [t, s.count]));
  if (Object.keys(strippedCounts).length)
    warnings.push(
      `left out of the deck (not volume elements): ${Object.entries(strippedCounts)
        .map(([t, c]) => `${c} ${t}`)
        .join(', ')}`,
    );

  const out: string[] = [
    `** deck written by the solver adapter from ${input.meshPath.split('/').pop()}`,
    '*NODE, NSET=NALL',
  ];
  for (let i = 0; i < n; i++)
    out.push(
      `${mesh.nodeIds[i]}, ${num(mesh.coords[3 * i])}, ${num(mesh.coords[3 * i + 1])}, ${num(mesh.coords[3 * i + 2])}`,
    );
  const element_types: Record<string, number> = {};
  const bodies = new Map<string, number[]>();
  const groups = new Map<string, InpMesh['elements']>();
  for (const e of mesh.elements) {
    element_types[e.type] = (element_types[e.type] ?? 0) + 1;
    const key = `${e.type}\u0000${name(e.body)}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(e);
    (bodies.get(name(e.body)) ?? bodies.set(name(e.body), []).get(name(e.body))!).push(e.id);
  }
  let maxId = 0;
  for (const id of mesh.nodeIds) maxId = Math.max(maxId, id);
  for (const e of mesh.elements) maxId = Math.max(maxId, e.id);
  // ccx reads 132-character lines: keep element lines under that, continuing with a trailing comma.
  const perLine = Math.max(4, Math.min(16, Math.floor(128 / (String(maxId).length + 2))));
  for (const [key, els] of groups) {
    const [type, body] = key.split('\u0000');
    out.push(`*ELEMENT, TYPE=${type}, ELSET=${body}`);
    for (const e of els) {
      const all = [e.id, ...e.nodes];
      for (let k = 0; k < all.length; k += perLine)
        out.push(all.slice(k, k + perLine).join(', ') + (k + perLine < all.length ? ',' : ''));
    }
  }
  const writeSet = (setName: string, ids: number[]) => {
    out.push(`*NSET, NSET=${name(setName)}`);
    for (let k = 0; k < ids.length; k += 10) out.push(ids.slice(k, k + 10).join(', ') + ',');
  };
  writeSet(input.fixedSet, fixed);
  if (input.loadSet && name(input.loadSet) !== name(input.fixedSet)) writeSet(input.loadSet, load);
  const m = input.material;
  out.push(
    `*MATERIAL, NAME=${name(m.name)}`,
    '*ELASTIC',
    `${num(m.youngs_modulus_mpa)}, ${num(m.poisson_ratio)}`,
    '*DENSITY',
    num(m.density_t_mm3),
  );
  out.push('*CONDUCTIVITY', num(m.conductivity), '*SPECIFIC HEAT', num(m.specific_heat));
  for (const body of bodies.keys()) out.push(`*SOLID SECTION, ELSET=${body}, MATERIAL=${name(m.name)}`);
  const F = name(input.fixedSet);
  const L = input.loadSet ? name(input.loadSet) : '';
  let heat: PreparedDeck['heat'];
  out.push('*STEP');
  if (input.analysis === 'static_stress') {
    const force = input.forceN ?? [0, 0, 0];
    out.push('*STATIC', '*BOUNDARY', `${F}, 1, 3`, '*CLOAD');
    force.forEach((f, k) => f !== 0 && out.push(`${L}, ${k + 1}, ${num(f / load.length)}`));
    out.push('*NODE FILE', 'U', '*EL FILE', 'S', `*NODE PRINT, NSET=${F}, TOTALS=ONLY`, 'RF');
  } else if (input.analysis === 'modal') {
    out.push('*FREQUENCY', `${input.numModes}`, '*BOUNDARY', `${F}, 1, 3`, '*NODE FILE', 'U');
  } else {
    out.push('*HEAT TRANSFER, STEADY STATE', '*BOUNDARY', `${F}, 11, 11, ${num(input.sinkTempC)}`);
    const faces = facesIn(mesh, new Set(load));
    const area = faces.reduce((a, f) => a + f.area, 0);
    const mw = input.powerW * 1000;
    if (faces.length && area > 0) {
      out.push('*DFLUX');
      for (const f of faces) out.push(`${f.elem}, S${f.face + 1}, ${num(mw / area)}`);
      heat = { faces: faces.length, area_mm2: area, flux_mw_mm2: mw / area };
    } else if (load.length) {
      out.push('*CFLUX', `${L}, 11, ${num(mw / load.length)}`);
      heat = { nodes: load.length, per_node_mw: mw / load.length };
    }
    out.push('*NODE FILE', 'NT');
  }
  out.push('*END STEP', '');
  fs.writeFileSync(input.deckPath, out.join('\n'));
  return {
    ok: true,
    nodes: n,
    elements: mesh.elements.length,
    element_types,
    stripped: strippedCounts,
    bodies: [...bodies].map(([b, ids]) => ({ name: b, elementIds: Int32Array.from(ids) })),
    bbox,
    sets,
    fixedNodeIds: Int32Array.from(fixed),
    loadNodeIds: Int32Array.from(load),
    ...(heat ? { heat } : {}),
    warnings,
  };
}

function boxOf(mesh: InpMesh, ids: ArrayLike<number>): Box {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < ids.length; k++) {
    const i = mesh.indexOf.get(ids[k]);
    if (i === undefined) continue;
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], mesh.coords[3 * i + a]);
      max[a] = Math.max(max[a], mesh.coords[3 * i + a]);
    }
  }
  return { min, max };
}

/** Element faces whose corners all lie in `nodes` and that no other such face duplicates (outer faces of the set). */
function facesIn(mesh: InpMesh, nodes: Set<number>): { elem: number; face: number; area: number }[] {
  const found = new Map<string, { elem: number; face: number; area: number } | null>();
  for (const e of mesh.elements) {
    const corners = VOLUME_TYPES[e.type].corners;
    const table = corners === 4 ? FACES.tet : corners === 6 ? FACES.wedge : FACES.hex;
    table.forEach((face, k) => {
      const ids = face.map((c) => e.nodes[c]);
      if (!ids.every((id) => nodes.has(id))) return;
      const key = [...ids].sort((a, b) => a - b).join(',');
      found.set(key, found.has(key) ? null : { elem: e.id, face: k, area: polygonArea(mesh, ids) });
    });
  }
  return [...found.values()].filter((f): f is { elem: number; face: number; area: number } => f !== null);
}

function polygonArea(mesh: InpMesh, ids: number[]): number {
  const p = ids.map((id) => {
    const i = mesh.indexOf.get(id)!;
    return [mesh.coords[3 * i], mesh.coords[3 * i + 1], mesh.coords[3 * i + 2]];
  });
  let [x, y, z] = [0, 0, 0];
  for (let k = 0; k < p.length; k++) {
    const a = p[k];
    const b = p[(k + 1) % p.length];
    x += (a[1] - b[1]) * (a[2] + b[2]);
    y += (a[2] - b[2]) * (a[0] + b[0]);
    z += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return 0.5 * Math.hypot(x, y, z);
}
