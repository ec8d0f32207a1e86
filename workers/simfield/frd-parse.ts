import { ColumnError, lineAt, readInt, readReal, text } from './numbers.ts';

/** Corner and total node counts of the `.frd` element type codes (notes/solver.md "`.frd` format"). */
export const FRD_TYPES: Record<number, { name: string; nodes: number; corners: number; volume: boolean }> = {
  1: { name: 'he8', nodes: 8, corners: 8, volume: true },
  2: { name: 'pe6', nodes: 6, corners: 6, volume: true },
  3: { name: 'te4', nodes: 4, corners: 4, volume: true },
  4: { name: 'he20', nodes: 20, corners: 8, volume: true },
  5: { name: 'pe15', nodes: 15, corners: 6, volume: true },
  6: { name: 'te10', nodes: 10, corners: 4, volume: true },
  7: { name: 'tr3', nodes: 3, corners: 3, volume: false },
  8: { name: 'tr6', nodes: 6, corners: 3, volume: false },
  9: { name: 'qu4', nodes: 4, corners: 4, volume: false },
  10: { name: 'qu8', nodes: 8, corners: 4, volume: false },
  11: { name: 'be2', nodes: 2, corners: 2, volume: false },
  12: { name: 'be3', nodes: 3, corners: 2, volume: false },
};

/** One result block's header and where its data lines are; values are read on demand by `readBlock`. */
export interface FrdBlock {
  name: string;
  /** Components present in the data (IEXIST 0), in file order. */
  components: string[];
  step: number;
  mode: number | null;
  /** Total time (static, heat) or frequency in Hz (modal): the `100C` value. */
  value: number;
  analysis: string;
  nodeCount: number;
  long: boolean;
  dataStart: number;
  dataEnd: number;
}

/** Nodes, elements (node indices, not ids) and the block directory of one `.frd`. */
export interface FrdFile {
  nodeIds: Int32Array;
  coords: Float64Array;
  elemIds: Int32Array;
  elemTypes: Uint8Array;
  elemOffsets: Int32Array;
  elemNodes: Int32Array;
  blocks: FrdBlock[];
  /** Node index of an id, -1 when unknown. */
  indexOf(id: number): number;
  /** Dense id → index table when ids are compact enough (the hot loops read it directly), else null. */
  idTable: Int32Array | null;
}

/** A `.frd` that cannot be read: the message names the 1-based line. */
export class FrdError extends Error {
  override name = 'FrdError';
}

const startsWith = (b: Uint8Array, at: number, s: string) => {
  for (let k = 0; k < s.length; k++) if (b[at + k] !== s.charCodeAt(k)) return false;
  return true;
};

/** Parses the node and element blocks and lists the result blocks of a CalculiX ASCII `.frd`. */
export function parseFrd(b: Uint8Array): FrdFile {
  try {
    return parse(b);
  } catch (err) {
    if (err instanceof ColumnError) throw new FrdError(`.frd line ${lineAt(b, err.offset)}: ${err.message}`);
    throw err;
  }
}

function parse(b: Uint8Array): FrdFile {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  let nodeIds = new Int32Array(0);
  let coords = new Float64Array(0);
  let ids: Int32Array | null = null;
  let map: Int32Array | Map<number, number> = new Map();
  let elemIds = new Int32Array(0);
  let elemTypes = new Uint8Array(0);
  let elemOffsets = new Int32Array(1);
  let elemNodes = new Int32Array(0);
  const blocks: FrdBlock[] = [];
  let step = 0;
  let mode: number | null = null;
  let pos = 0;
  let ended = false;
  const fail = (at: number, msg: string): never => {
    throw new FrdError(`.frd line ${lineAt(b, at)}: ${msg}`);
  };
  const indexOf = (id: number) =>
    map instanceof Map ? (map.get(id) ?? -1) : id >= 0 && id < map.length ? map[id] : -1;

  while (pos < b.length) {
    let nl = buf.indexOf(10, pos);
    if (nl === -1) nl = b.length;
    if (startsWith(b, pos, '    2C')) {
      const n = readInt(b, pos + 24, pos + 36);
      const long = flag(b, pos, nl) !== 0;
      ({ nodeIds, coords, nl } = readNodes(b, buf, nl + 1, n, long, fail));
      ids = nodeIds;
      map = idMap(ids);
    } else if (startsWith(b, pos, '    3C')) {
      if (!ids) fail(pos, 'elements before the node block');
      const n = readInt(b, pos + 24, pos + 36);
      const long = flag(b, pos, nl) !== 0;
      ({ elemIds, elemTypes, elemOffsets, elemNodes, nl } = readElements(
        b,
        buf,
        nl + 1,
        n,
        long,
        map instanceof Map ? null : map,
        indexOf,
        fail,
      ));
    } else if (startsWith(b, pos, '    1PSTEP')) {
      step =
        Number(
          text(b, pos + 10, nl)
            .trim()
            .split(/\s+/)[2] ?? 0,
        ) || 0;
      mode = null;
    } else if (startsWith(b, pos, '    1PMODE')) {
      mode =
        Number(
          text(b, pos + 10, nl)
            .trim()
            .split(/\s+/)[0],
        ) || null;
    } else if (startsWith(b, pos, '  100C')) {
      const block = readBlockHeader(b, buf, pos, nl, step, mode, fail);
      blocks.push(block);
      nl = block.dataEnd + 3 < b.length ? buf.indexOf(10, block.dataEnd + 1) : b.length;
      if (nl === -1) nl = b.length;
    } else if (startsWith(b, pos, ' 9999')) {
      ended = true;
      break;
    }
    pos = nl + 1;
  }
  if (!ended) fail(b.length, 'the file ends without the closing 9999 line (truncated?)');
  if (nodeIds.length === 0) fail(0, 'no nodes');
  return {
    nodeIds,
    coords,
    elemIds,
    elemTypes,
    elemOffsets,
    elemNodes,
    blocks,
    indexOf,
    idTable: map instanceof Map ? null : map,
  };
}

/** Format flag of a `2C`/`3C`/`100C` line: col 73 (0 short, 1 long, 2 binary). */
function flag(b: Uint8Array, pos: number, nl: number): number {
  const f = nl - pos > 74 ? readInt(b, pos + 73, Math.min(nl, pos + 75)) : nl - pos > 73 ? readInt(b, pos + 73, nl) : 1;
  if (f === 2) throw new FrdError('binary .frd (format flag 2) is not supported: write ASCII output');
  return f;
}

function idMap(ids: Int32Array): Int32Array | Map<number, number> {
  let max = 0;
  for (let i = 0; i < ids.length; i++) if (ids[i] > max) max = ids[i];
  if (max <= ids.length * 4 + 1_000_000) {
    const m = new Int32Array(max + 1).fill(-1);
    for (let i = 0; i < ids.length; i++) m[ids[i]] = i;
    return m;
  }
  const m = new Map<number, number>();
  for (let i = 0; i < ids.length; i++) m.set(ids[i], i);
  return m;
}

type Fail = (at: number, msg: string) => never;

/** Index of the newline ending the line at `pos` (the file length for a last line without one). */
function lineEnd(buf: Buffer, pos: number): number {
  const nl = buf.indexOf(10, pos);
  return nl === -1 ? buf.length : nl;
}

function readNodes(b: Uint8Array, buf: Buffer, pos: number, n: number, long: boolean, fail: Fail) {
  const nodeIds = new Int32Array(n);
  const coords = new Float64Array(n * 3);
  const w = long ? 10 : 5;
  let k = 0;
  for (;;) {
    if (pos >= b.length) fail(pos, 'the node block is not closed by -3');
    if (b[pos + 1] === 45 && b[pos + 2] === 51) {
      const end = buf.indexOf(10, pos);
      return {
        nodeIds: k === n ? nodeIds : fail(pos, `node block lists ${k} nodes, its header says ${n}`),
        coords,
        nl: end === -1 ? b.length : end,
      };
    }
    let nl = pos + 39 + w; // fixed-length line (id, three E12.5); else search the newline
    if (b[nl] !== 10) nl = lineEnd(buf, pos);
    if (b[pos + 1] !== 45 || b[pos + 2] !== 49) fail(pos, `expected a node line " -1", found "${text(b, pos, nl)}"`);
    if (k >= n) fail(pos, `more nodes than the ${n} the header announces`);
    nodeIds[k] = readInt(b, pos + 3, pos + 3 + w);
    const c = pos + 3 + w;
    coords[3 * k] = readReal(b, c, c + 12);
    coords[3 * k + 1] = readReal(b, c + 12, c + 24);
    coords[3 * k + 2] = readReal(b, c + 24, Math.min(nl, c + 36));
    k++;
    pos = nl + 1;
  }
}

function readElements(
  b: Uint8Array,
  buf: Buffer,
  pos: number,
  n: number,
  long: boolean,
  table: Int32Array | null,
  indexOf: (id: number) => number,
  fail: Fail,
) {
  const elemIds = new Int32Array(n);
  const elemTypes = new Uint8Array(n);
  const elemOffsets = new Int32Array(n + 1);
  let elemNodes = new Int32Array(n * 10);
  const w = long ? 10 : 5;
  let k = 0;
  let fill = 0;
  for (;;) {
    if (pos >= b.length) fail(pos, 'the element block is not closed by -3');
    if (b[pos + 1] === 45 && b[pos + 2] === 51) {
      if (k !== n) fail(pos, `element block lists ${k} elements, its header says ${n}`);
      return { elemIds, elemTypes, elemOffsets, elemNodes: elemNodes.subarray(0, fill), nl: lineEnd(buf, pos) };
    }
    let nl = pos + 18 + w; // ` -1`, id, type, group, material
    if (b[nl] !== 10) nl = lineEnd(buf, pos);
    if (b[pos + 1] !== 45 || b[pos + 2] !== 49)
      fail(pos, `expected an element line " -1", found "${text(b, pos, nl)}"`);
    if (k >= n) fail(pos, `more elements than the ${n} the header announces`);
    elemIds[k] = readInt(b, pos + 3, pos + 3 + w);
    const type = readInt(b, pos + 3 + w, pos + 8 + w);
    const t = FRD_TYPES[type];
    if (!t) fail(pos, `unknown element type code ${type}`);
    elemTypes[k] = type;
    if (fill + t.nodes > elemNodes.length) {
      const grown = new Int32Array(Math.max(elemNodes.length * 2, fill + t.nodes));
      grown.set(elemNodes);
      elemNodes = grown;
    }
    let got = 0;
    pos = nl + 1;
    while (got < t.nodes) {
      nl = pos + 3 + w * Math.min(t.nodes - got, long ? 10 : 15);
      if (b[nl] !== 10) nl = lineEnd(buf, pos);
      if (b[pos + 1] !== 45 || b[pos + 2] !== 50)
        fail(pos, `element ${k + 1} of type ${t.name} needs ${t.nodes} nodes, found ${got}`);
      for (let c = pos + 3; c + w <= nl && got < t.nodes; c += w) {
        const id = readInt(b, c, c + w);
        const idx = table ? (id >= 0 && id < table.length ? table[id] : -1) : indexOf(id);
        if (idx < 0) fail(pos, `element refers to node ${id}, which the node block does not define`);
        elemNodes[fill + got++] = idx;
      }
      pos = nl + 1;
    }
    fill += t.nodes;
    elemOffsets[++k] = fill;
  }
}

function readBlockHeader(
  b: Uint8Array,
  buf: Buffer,
  pos: number,
  nl: number,
  step: number,
  mode: number | null,
  fail: Fail,
): FrdBlock {
  const value = readReal(b, pos + 12, pos + 24);
  const nodeCount = readInt(b, pos + 24, pos + 36);
  const analysis = nl - pos > 63 ? text(b, pos + 63, Math.min(nl, pos + 73)).trim() : '';
  const long = nl - pos > 73 ? readInt(b, pos + 73, Math.min(nl, pos + 75)) !== 0 : true;
  let p = nl + 1;
  let e = buf.indexOf(10, p);
  if (!startsWith(b, p, ' -4')) fail(p, 'a result header must be followed by a " -4" line');
  const name = text(b, p + 5, p + 13).trim();
  const ncomp = readInt(b, p + 13, p + 18);
  const components: string[] = [];
  for (let c = 0; c < ncomp; c++) {
    p = e + 1;
    e = buf.indexOf(10, p);
    if (!startsWith(b, p, ' -5')) fail(p, `block ${name} announces ${ncomp} components, found ${c}`);
    const exists = e - p > 33 ? readInt(b, p + 33, Math.min(e, p + 38)) : 0;
    if (exists === 0) components.push(text(b, p + 5, p + 13).trim());
  }
  const dataStart = e + 1;
  const end = buf.indexOf('\n -3', dataStart - 1);
  if (end === -1) fail(dataStart, `block ${name} is not closed by -3`);
  return { name, components, step, mode, value, analysis, nodeCount, long, dataStart, dataEnd: end + 1 };
}

/** Reads a block's values: `ncomp` per node in node-index order (nodes the block omits stay 0). */
export function readBlock(b: Uint8Array, f: FrdFile, blk: FrdBlock): Float64Array {
  try {
    return read(b, f, blk);
  } catch (err) {
    if (err instanceof ColumnError)
      throw new FrdError(`.frd line ${lineAt(b, err.offset)}: ${err.message} (block ${blk.name})`);
    throw err;
  }
}

function read(b: Uint8Array, f: FrdFile, blk: FrdBlock): Float64Array {
  const nc = blk.components.length;
  const out = new Float64Array(f.nodeIds.length * nc);
  const w = blk.long ? 10 : 5;
  const v0 = 3 + w;
  const lineLen = v0 + 12 * Math.min(nc, 6);
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  const table = f.idTable;
  let pos = blk.dataStart;
  let rows = 0;
  while (pos < blk.dataEnd) {
    // Fast path: fixed-length lines; fall back to searching the newline when a line is not.
    let nl = pos + lineLen;
    if (b[nl] !== 10) nl = buf.indexOf(10, pos);
    if (b[pos + 1] !== 45 || b[pos + 2] !== 49)
      throw new ColumnError(`expected a data line " -1", found "${text(b, pos, nl)}"`, pos);
    const id = readInt(b, pos + 3, pos + v0);
    const idx = table ? (id >= 0 && id < table.length ? table[id] : -1) : f.indexOf(id);
    if (idx < 0) throw new ColumnError(`result for node ${id}, which the node block does not define`, pos);
    const o = idx * nc;
    let c = 0;
    for (let s = pos + v0; c < nc && c < 6; s += 12, c++) out[o + c] = readReal(b, s, Math.min(s + 12, nl));
    pos = nl + 1;
    while (c < nc) {
      nl = buf.indexOf(10, pos);
      if (b[pos + 1] !== 45 || b[pos + 2] !== 50)
        throw new ColumnError(`node ${id}: expected a continuation line " -2"`, pos);
      for (let s = pos + v0; c < nc && s < nl; s += 12, c++) out[o + c] = readReal(b, s, Math.min(s + 12, nl));
      pos = nl + 1;
    }
    rows++;
  }
  if (rows === 0) throw new ColumnError(`block ${blk.name} has no data lines`, blk.dataStart);
  return out;
}
