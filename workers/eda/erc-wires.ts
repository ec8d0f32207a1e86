import type { Violations } from './erc-violations.ts';
import type { Point, Segment, SheetContent } from './schematic.types.ts';
import { interior as inside } from './sheet-groups.ts';
import { UnionFind } from './union-find.ts';

const key = (p: Point) => `${p.x},${p.y}`;

/**
 * The wire runs of a sheet that reach no pin, label or sheet pin, by the joining rules of sheet-groups.ts (wire ends
 * that meet, a wire end or junction inside a wire; pins and sheet pins at wire ends, labels anywhere on a wire). Each
 * run is given by its first wire.
 */
function floatingRuns(sheet: SheetContent): Segment[] {
  const wires = sheet.wires;
  const uf = new UnionFind(wires.length);
  const byEnd = new Map<string, number>();
  wires.forEach((w, i) => {
    for (const p of [w.a, w.b]) {
      const j = byEnd.get(key(p));
      if (j === undefined) byEnd.set(key(p), i);
      else uf.union(i, j);
    }
  });
  // Wires by the line they lie on, to find those whose interior holds a point without scanning them all.
  const byY = new Map<number, number[]>();
  const byX = new Map<number, number[]>();
  const slanted: number[] = [];
  const push = (m: Map<number, number[]>, k: number, i: number) => {
    const l = m.get(k);
    if (l) l.push(i);
    else m.set(k, [i]);
  };
  wires.forEach((w, i) => {
    if (w.a.y === w.b.y) push(byY, w.a.y, i);
    else if (w.a.x === w.b.x) push(byX, w.a.x, i);
    else slanted.push(i);
  });
  const hits = (p: Point) => {
    const out: number[] = [];
    for (const list of [byY.get(p.y), byX.get(p.x), slanted])
      for (const i of list ?? []) if (inside(wires[i]!, p)) out.push(i);
    return out;
  };
  // A wire end or junction inside wires joins them (and the wire ending there).
  for (const p of [...sheet.junctions, ...wires.flatMap((w) => [w.a, w.b])]) {
    const on = hits(p);
    const end = byEnd.get(key(p));
    if (end !== undefined) on.push(end);
    for (const i of on.slice(1)) uf.union(on[0]!, i);
  }
  const driven = new Set<number>();
  const ends = [...sheet.symbols.flatMap((s) => s.pins.map((p) => p.at)), ...sheet.sheetPins.map((p) => p.at)];
  for (const p of ends) {
    const i = byEnd.get(key(p));
    if (i !== undefined) driven.add(uf.find(i));
  }
  for (const l of sheet.labels) {
    const on = hits(l.at);
    const end = byEnd.get(key(l.at));
    if (end !== undefined) on.push(end);
    for (const i of on) driven.add(uf.find(i));
  }
  const seen = new Set<number>();
  const out: Segment[] = [];
  wires.forEach((w, i) => {
    const r = uf.find(i);
    if (driven.has(r) || seen.has(r)) return;
    seen.add(r);
    out.push(w);
  });
  return out;
}

/**
 * CONNECTION_GRAPH::ercCheckFloatingWires (ERCE_WIRE_DANGLING, an error): a run of wires with no driver, i.e. reaching
 * no pin, label or sheet pin (the sheet groups of connectivity hold no wire-only group, so the runs are found here).
 * The marker sits on the run's first wire.
 */
export function floatingWires(sheets: SheetContent[], v: Violations) {
  for (const sheet of sheets)
    for (const w of floatingRuns(sheet)) v.add('wire_dangling', 'Wires not connected to anything', sheet, w.a, []);
}
