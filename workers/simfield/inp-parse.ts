/** Volume element types of a CalculiX/Abaqus deck: node count, corner count. Everything else is stripped. */
export const VOLUME_TYPES: Record<string, { nodes: number; corners: number }> = {
  C3D4: { nodes: 4, corners: 4 },
  C3D6: { nodes: 6, corners: 6 },
  C3D8: { nodes: 8, corners: 8 },
  C3D8R: { nodes: 8, corners: 8 },
  C3D8I: { nodes: 8, corners: 8 },
  C3D10: { nodes: 10, corners: 4 },
  C3D10T: { nodes: 10, corners: 4 },
  C3D15: { nodes: 15, corners: 6 },
  C3D20: { nodes: 20, corners: 8 },
  C3D20R: { nodes: 20, corners: 8 },
};
/** Node counts of surface and line types gmsh writes beside the volume (needed to skip their data lines). */
const OTHER_TYPES: Record<string, number> = {
  CPS3: 3,
  CPS4: 4,
  CPS6: 6,
  CPS8: 8,
  CPE3: 3,
  CPE6: 6,
  S3: 3,
  S4: 4,
  S6: 6,
  S8: 8,
  T3D2: 2,
  T3D3: 3,
  B31: 2,
  B32: 3,
};

/** A mesh read from an `.inp`: nodes, volume elements grouped in bodies, node and element sets (names upper-cased). */
export interface InpMesh {
  nodeIds: Int32Array;
  coords: Float64Array;
  indexOf: Map<number, number>;
  elements: { id: number; type: string; nodes: number[]; body: string }[];
  /** Elements of other types, by type, that are not part of the solver deck (e.g. gmsh's CPS6 faces). */
  stripped: Record<string, { count: number; byId: Map<number, number[]> }>;
  nsets: Map<string, number[]>;
  elsets: Map<string, number[]>;
  bodies: string[];
}

/** An `.inp` that cannot be read: the message names the 1-based line. */
export class InpError extends Error {
  override name = 'InpError';
}

const option = (card: string, key: string): string | undefined => {
  const m = new RegExp(`(?:^|,)\\s*${key}\\s*=\\s*([^,]+)`, 'i').exec(card);
  return m?.[1].trim();
};

/**
 * Reads the mesh part of an `.inp` (everything before the first `*STEP`): `*NODE`, `*ELEMENT` (volume types kept,
 * others stripped and counted), `*NSET`/`*ELSET` (ids, `GENERATE`, or names of earlier sets). Other cards are skipped.
 */
export function parseInp(text: string, label = 'mesh_file'): InpMesh {
  const lines = text.split('\n');
  const nodeIds: number[] = [];
  const xyz: number[] = [];
  const indexOf = new Map<number, number>();
  const elements: InpMesh['elements'] = [];
  const stripped: InpMesh['stripped'] = {};
  const nsets = new Map<string, number[]>();
  const elsets = new Map<string, number[]>();
  const bodies: string[] = [];
  type Mode =
    | { kind: 'skip' }
    | { kind: 'node'; nset?: string }
    | { kind: 'element'; type: string; nodes: number; elset: string; volume: boolean }
    | { kind: 'set'; sets: Map<string, number[]>; name: string; generate: boolean };
  let mode: Mode = { kind: 'skip' };
  let pending: number[] = [];
  let pendingLine = 0;
  const fail = (ln: number, msg: string): never => {
    throw new InpError(`${label} line ${ln + 1}: ${msg}`);
  };
  const ints = (ln: number, s: string, out: number[] = []): number[] => {
    if (!readInts(s, out)) fail(ln, `expected integers, found "${s.trim()}"`);
    return out;
  };
  const finishElement = () => {
    if (mode.kind !== 'element' || !pending.length) return;
    if (pending.length !== mode.nodes + 1)
      fail(pendingLine, `a ${mode.type} element needs ${mode.nodes} nodes, found ${pending.length - 1}`);
    const [id, ...nodes] = pending;
    if (mode.volume) {
      for (const n of nodes)
        if (!indexOf.has(n)) fail(pendingLine, `element ${id} refers to node ${n}, which no *NODE card defines`);
      elements.push({ id, type: mode.type, nodes, body: mode.elset });
    } else {
      const s = (stripped[mode.type] ??= { count: 0, byId: new Map() });
      s.count++;
      s.byId.set(id, nodes);
    }
    pending = [];
  };

  for (let ln = 0; ln < lines.length; ln++) {
    const raw = lines[ln].replace(/\r$/, '');
    const line = raw.trim();
    if (line === '' || line.startsWith('**')) continue;
    if (line.startsWith('*')) {
      finishElement();
      const card = line.toUpperCase();
      const keyword = card.split(',')[0].trim();
      if (keyword === '*STEP') break;
      if (keyword === '*NODE') mode = { kind: 'node', nset: option(card, 'NSET') };
      else if (keyword === '*ELEMENT') {
        const type = option(card, 'TYPE') ?? fail(ln, '*ELEMENT without TYPE=');
        const vol = VOLUME_TYPES[type];
        const nodes =
          vol?.nodes ??
          OTHER_TYPES[type] ??
          fail(ln, `element type ${type} is not supported (volume types: ${Object.keys(VOLUME_TYPES).join(', ')})`);
        const elset = option(card, 'ELSET') ?? 'EALL';
        if (vol && !bodies.includes(elset)) bodies.push(elset);
        mode = { kind: 'element', type, nodes, elset, volume: Boolean(vol) };
      } else if (keyword === '*NSET' || keyword === '*ELSET') {
        const name = option(card, keyword === '*NSET' ? 'NSET' : 'ELSET') ?? fail(ln, `${keyword} without a name`);
        const sets = keyword === '*NSET' ? nsets : elsets;
        if (!sets.has(name)) sets.set(name, []);
        mode = { kind: 'set', sets, name, generate: /(^|,)\s*GENERATE\s*(,|$)/.test(card) };
      } else mode = { kind: 'skip' };
      continue;
    }
    if (mode.kind === 'node') {
      const c1 = line.indexOf(',');
      const c2 = line.indexOf(',', c1 + 1);
      const c3 = line.indexOf(',', c2 + 1);
      const c4 = line.indexOf(',', c3 + 1);
      const id = c1 > 0 ? num(line, 0, c1) : NaN;
      const x = num(line, c1 + 1, c2);
      const y = num(line, c2 + 1, c3);
      const z = num(line, c3 + 1, c4 === -1 ? line.length : c4);
      if (
        c1 < 0 ||
        c2 < 0 ||
        c3 < 0 ||
        !Number.isInteger(id) ||
        !Number.isFinite(x) ||
        !Number.isFinite(y) ||
        !Number.isFinite(z)
      ) {
        fail(ln, `expected "id, x, y, z" in *NODE, found "${line}"`);
      }
      if (indexOf.has(id)) fail(ln, `node ${id} is defined twice`);
      indexOf.set(id, nodeIds.length);
      nodeIds.push(id);
      xyz.push(x, y, z);
      if (mode.nset) (nsets.get(mode.nset) ?? nsets.set(mode.nset, []).get(mode.nset)!).push(id);
    } else if (mode.kind === 'element') {
      if (!pending.length) pendingLine = ln;
      ints(ln, line, pending);
      if (!line.endsWith(',') && pending.length >= mode.nodes + 1) finishElement();
      else if (pending.length > mode.nodes + 1) fail(ln, `too many nodes for a ${mode.type} element`);
    } else if (mode.kind === 'set') {
      const target = mode.sets.get(mode.name)!;
      if (mode.generate) {
        const [a, b, step = 1] = ints(ln, line);
        if (b === undefined || step <= 0 || b < a) fail(ln, `GENERATE expects "first, last[, step]", found "${line}"`);
        for (let i = a; i <= b; i += step) target.push(i);
      } else {
        for (const t of line
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          if (/^-?\d+$/.test(t)) target.push(Number(t));
          else {
            const other = mode.sets.get(t.toUpperCase()) ?? fail(ln, `set ${t} is not defined before it is used`);
            target.push(...other);
          }
        }
      }
    }
  }
  finishElement();
  if (nodeIds.length === 0) throw new InpError(`${label} has no *NODE data: it is not a mesh`);
  if (elements.length === 0) {
    const others = Object.keys(stripped);
    throw new InpError(
      `${label} has no volume elements${others.length ? ` (only ${others.join(', ')})` : ''}: the solver needs a 3D mesh (${Object.keys(VOLUME_TYPES).join(', ')})`,
    );
  }
  return {
    nodeIds: Int32Array.from(nodeIds),
    coords: Float64Array.from(xyz),
    indexOf,
    elements,
    stripped,
    nsets,
    elsets,
    bodies,
  };
}

/** A number in `s[a, b)`; NaN for blanks or junk. */
function num(s: string, a: number, b: number): number {
  if (b <= a) return NaN;
  const t = s.slice(a, b).trim();
  return t === '' ? NaN : Number(t);
}

/** Appends the comma-separated integers of a data line to `out`; false on anything else. */
function readInts(s: string, out: number[]): boolean {
  let v = 0;
  let digits = 0;
  let neg = false;
  let gap = false;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 44;
    if (c >= 48 && c <= 57) {
      if (gap) return false;
      v = v * 10 + (c - 48);
      digits++;
    } else if (c === 44) {
      if (digits) out.push(neg ? -v : v);
      else if (neg) return false;
      v = digits = 0;
      neg = gap = false;
    } else if (c === 32 || c === 9 || c === 13) {
      if (digits) gap = true;
    } else if (c === 45 && !digits && !neg) neg = true;
    else return false;
  }
  return true;
}

/** Node ids of the named sets of an `.inp` (names matched without case); names it lacks are listed in `missing`. */
export function readNodeSets(text: string, names: string[]): { sets: Record<string, Int32Array>; missing: string[] } {
  const mesh = parseInp(text);
  const sets: Record<string, Int32Array> = {};
  const missing: string[] = [];
  for (const n of names) {
    const ids = mesh.nsets.get(n.toUpperCase());
    if (ids?.length) sets[n] = Int32Array.from(ids);
    else missing.push(n);
  }
  return { sets, missing };
}
