import type { FrdBlock, FrdFile } from './frd-parse.ts';

/** Range and peak of a nodal field over the nodes elements use (SPEC rule 10: before any simplification). */
export interface FieldStats {
  min: number;
  max: number;
  /** Node index of the maximum (first node on ties). */
  peak: number;
}

/**
 * von Mises stress per node from the six components `SXX SYY SZZ SXY SYZ SZX` (found by name in the block, so a
 * writer that orders them differently still works): √(½((sx−sy)² + (sy−sz)² + (sz−sx)²) + 3(sxy² + syz² + szx²)).
 */
export function vonMises(stress: Float64Array, block: FrdBlock): Float64Array {
  const nc = block.components.length;
  const at = (name: string) => {
    const i = block.components.indexOf(name);
    if (i < 0) throw new Error(`the STRESS block has no ${name} component (has ${block.components.join(', ')})`);
    return i;
  };
  const [xx, yy, zz, xy, yz, zx] = ['SXX', 'SYY', 'SZZ', 'SXY', 'SYZ', 'SZX'].map(at);
  const n = stress.length / nc;
  const out = new Float64Array(n);
  for (let i = 0, o = 0; i < n; i++, o += nc) {
    const sx = stress[o + xx];
    const sy = stress[o + yy];
    const sz = stress[o + zz];
    const txy = stress[o + xy];
    const tyz = stress[o + yz];
    const tzx = stress[o + zx];
    out[i] = Math.sqrt(
      0.5 * ((sx - sy) ** 2 + (sy - sz) ** 2 + (sz - sx) ** 2) + 3 * (txy * txy + tyz * tyz + tzx * tzx),
    );
  }
  return out;
}

/** The first three components of a vector block (DISP `D1 D2 D3`), as x,y,z per node. */
export function vector3(values: Float64Array, block: FrdBlock): Float64Array {
  const nc = block.components.length;
  if (nc === 3) return values;
  const n = values.length / nc;
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) out[3 * i + k] = values[i * nc + k];
  return out;
}

/** |u| per node. */
export function magnitude(v3: Float64Array): Float64Array {
  const n = v3.length / 3;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = v3[3 * i];
    const y = v3[3 * i + 1];
    const z = v3[3 * i + 2];
    out[i] = Math.sqrt(x * x + y * y + z * z); // Math.hypot is several times slower here
  }
  return out;
}

/** Which nodes volume elements use (orphan nodes carry zeros that are no result). */
export function usedNodes(f: FrdFile, isVolume: (code: number) => boolean): Uint8Array {
  const used = new Uint8Array(f.nodeIds.length);
  for (let e = 0; e < f.elemTypes.length; e++) {
    if (!isVolume(f.elemTypes[e])) continue;
    for (let k = f.elemOffsets[e]; k < f.elemOffsets[e + 1]; k++) used[f.elemNodes[k]] = 1;
  }
  return used;
}

/** Min, max and the node of the max over the used nodes; a NaN or infinite value is an error naming the node. */
export function statsOf(values: Float64Array, used: Uint8Array, nodeIds: Int32Array, what: string): FieldStats {
  let min = Infinity;
  let max = -Infinity;
  let peak = -1;
  for (let i = 0; i < values.length; i++) {
    if (!used[i]) continue;
    const v = values[i];
    if (!Number.isFinite(v))
      throw new Error(`${what} at node ${nodeIds[i]} is not a finite number (${v}): the solution diverged`);
    if (v < min) min = v;
    if (v > max) {
      max = v;
      peak = i;
    }
  }
  if (peak < 0) throw new Error(`no ${what} values on the elements' nodes`);
  return { min, max, peak };
}

/** Mean of a per-node vector (3 per node) over a node set; null for an empty set. */
export function meanOver(v3: Float64Array, nodes: Int32Array): [number, number, number] | null {
  if (nodes.length === 0) return null;
  let x = 0;
  let y = 0;
  let z = 0;
  for (const i of nodes) {
    x += v3[3 * i];
    y += v3[3 * i + 1];
    z += v3[3 * i + 2];
  }
  return [x / nodes.length, y / nodes.length, z / nodes.length];
}

/** Axis-aligned bounds of the given nodes (all when `nodes` is null). */
export function boundsOf(
  coords: Float64Array,
  nodes: Int32Array | null,
  used?: Uint8Array,
): { min: [number, number, number]; max: [number, number, number] } {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const visit = (i: number) => {
    for (let k = 0; k < 3; k++) {
      const v = coords[3 * i + k];
      if (v < min[k]) min[k] = v;
      if (v > max[k]) max[k] = v;
    }
  };
  if (nodes) for (const i of nodes) visit(i);
  else for (let i = 0; i < coords.length / 3; i++) if (!used || used[i]) visit(i);
  return { min, max };
}
