import type { Label, Point, Segment, SheetContent, SheetPin } from './schematic.types.ts';
import { UnionFind } from './union-find.ts';

/** A pin of a sheet's symbol, by index into `sheet.symbols` and that symbol's `pins`. */
export interface PinRef {
  symbol: number;
  pin: number;
}

/** Items of one sheet joined by wires (or by buses when `bus`), junctions and coincident connection points. */
export interface SheetGroup {
  bus: boolean;
  pins: PinRef[];
  labels: Label[];
  sheetPins: SheetPin[];
  noConnects: Point[];
  wires: number;
}

const key = (p: Point) => `${p.x},${p.y}`;

/** Whether p lies on segment s strictly between its ends (axis-aligned or diagonal, 1 nm tolerance). */
export function interior(s: Segment, p: Point): boolean {
  if ((p.x === s.a.x && p.y === s.a.y) || (p.x === s.b.x && p.y === s.b.y)) return false;
  const cross = (s.b.x - s.a.x) * (p.y - s.a.y) - (s.b.y - s.a.y) * (p.x - s.a.x);
  if (Math.abs(cross) > 1e-6) return false;
  return (
    p.x >= Math.min(s.a.x, s.b.x) - 1e-9 &&
    p.x <= Math.max(s.a.x, s.b.x) + 1e-9 &&
    p.y >= Math.min(s.a.y, s.b.y) - 1e-9 &&
    p.y <= Math.max(s.a.y, s.b.y) + 1e-9
  );
}

/** Finds the segments whose interior holds a point: horizontal and vertical ones by a coordinate index, others scanned. */
class SegmentIndex {
  private readonly byY = new Map<number, number[]>();
  private readonly byX = new Map<number, number[]>();
  private readonly slanted: number[] = [];
  private readonly segs: Segment[];
  constructor(segs: Segment[]) {
    this.segs = segs;
    segs.forEach((s, i) => {
      if (s.a.y === s.b.y) push(this.byY, s.a.y, i);
      else if (s.a.x === s.b.x) push(this.byX, s.a.x, i);
      else this.slanted.push(i);
    });
  }
  hits(p: Point): number[] {
    const out: number[] = [];
    for (const i of [...(this.byY.get(p.y) ?? []), ...(this.byX.get(p.x) ?? []), ...this.slanted])
      if (interior(this.segs[i]!, p)) out.push(i);
    return out;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/**
 * Groups one sheet's connectable items as KiCad's connection graph does: items whose connection points coincide join;
 * a junction, a label or a wire end lying inside a wire joins that wire; a bus joins only buses, bus labels and bus sheet
 * pins (its members reach wires by name, not by bus entries). Symbol pins join at wire ends and at other pins.
 */
export function sheetGroups(sheet: SheetContent): SheetGroup[] {
  const wires = sheet.wires;
  const buses = sheet.buses;
  const nW = wires.length;
  const nB = buses.length;
  // Node ids: wires, buses, then one node per point of interest.
  const pointIds = new Map<string, number>();
  const points: Point[] = [];
  const pointId = (p: Point) => {
    const k = key(p);
    let id = pointIds.get(k);
    if (id === undefined) {
      id = nW + nB + points.length;
      pointIds.set(k, id);
      points.push(p);
    }
    return id;
  };
  const ends: [number, Point][] = [];
  wires.forEach((w, i) => ends.push([i, w.a], [i, w.b]));
  const busEnds: [number, Point][] = [];
  buses.forEach((b, i) => busEnds.push([nW + i, b.a], [nW + i, b.b]));
  const pinPts = sheet.symbols.flatMap((s, si) => s.pins.map((p, pi) => ({ ref: { symbol: si, pin: pi }, at: p.at })));
  for (const [, p] of [...ends, ...busEnds]) pointId(p);
  for (const p of pinPts) pointId(p.at);
  for (const p of [...sheet.junctions, ...sheet.noConnects]) pointId(p);
  for (const l of sheet.labels) pointId(l.at);
  for (const sp of sheet.sheetPins) pointId(sp.at);
  const uf = new UnionFind(nW + nB + points.length);
  for (const [i, p] of [...ends, ...busEnds]) uf.union(i, pointId(p));
  // Interior hits: junctions, labels and wire ends on a wire; junctions, labels and bus ends on a bus.
  const wireIndex = new SegmentIndex(wires);
  const busIndex = new SegmentIndex(buses);
  const onWire = [...sheet.junctions, ...sheet.labels.map((l) => l.at)];
  for (const p of onWire) for (const w of wireIndex.hits(p)) uf.union(w, pointId(p));
  const onBus = [...sheet.junctions, ...sheet.labels.map((l) => l.at), ...busEnds.map(([, p]) => p)];
  for (const p of onBus) for (const b of busIndex.hits(p)) uf.union(nW + b, pointId(p));
  const isBusRoot = new Set<number>();
  for (let i = 0; i < nB; i++) isBusRoot.add(uf.find(nW + i));
  const groups = new Map<number, SheetGroup>();
  const group = (p: Point) => {
    const root = uf.find(pointId(p));
    let g = groups.get(root);
    if (!g) {
      g = { bus: isBusRoot.has(root), pins: [], labels: [], sheetPins: [], noConnects: [], wires: 0 };
      groups.set(root, g);
    }
    return g;
  };
  for (const p of pinPts) group(p.at).pins.push(p.ref);
  for (const l of sheet.labels) group(l.at).labels.push(l);
  for (const sp of sheet.sheetPins) group(sp.at).sheetPins.push(sp);
  for (const nc of sheet.noConnects) group(nc).noConnects.push(nc);
  for (let i = 0; i < nW; i++) {
    const g = groups.get(uf.find(i));
    if (g) g.wires++;
  }
  return [...groups.values()];
}
