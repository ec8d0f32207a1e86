import { describe, expect, it } from 'vitest';
import { connectivity } from '../../../../workers/eda/connectivity.ts';
import type {
  Label,
  LabelKind,
  PlacedSymbol,
  Schematic,
  SheetContent,
  SheetPin,
} from '../../../../workers/eda/schematic.types.ts';

/**
 * Bus members across the hierarchy as KiCad 9 joins them (decision 0160): a vector bus reaching a sheet through a
 * sheet pin is cloned member by member in order, so the child's `IO[0..7]` behind a parent's `IO[8..15]` label carries
 * IO8..IO15 (vme-wren's pp_driver and io_driver sheets); within one sheet, bus labels join their members by index.
 * Each sheet is drawn on its own rows: a bus on row y from x=0 to x=10, a wire on row y from a pin at x=0 to x=10.
 */
type Row = { bus?: true; labels?: [LabelKind, string][]; pins?: { name: string; child: string }[]; part?: string };

function sheet(path: string, rows: Row[]): SheetContent {
  const s: SheetContent = {
    instance: { path, names: path, file: `${path}.kicad_sch` },
    symbols: [],
    wires: [],
    buses: [],
    busEntries: [],
    junctions: [],
    noConnects: [],
    labels: [],
    sheetPins: [],
  };
  rows.forEach((r, y) => {
    (r.bus ? s.buses : s.wires).push({ a: { x: 0, y }, b: { x: 10, y } });
    for (const [kind, text] of r.labels ?? []) s.labels.push({ kind, text, at: { x: 10, y }, sheet: path } as Label);
    for (const p of r.pins ?? [])
      s.sheetPins.push({
        name: p.name,
        shape: 'bidirectional',
        at: { x: 0, y },
        sheet: path,
        child: p.child,
      } as SheetPin);
    if (r.part) s.symbols.push(part(r.part, path, y));
  });
  return s;
}

function part(reference: string, path: string, y: number): PlacedSymbol {
  return {
    uuid: `${reference}-u`,
    sheet: path,
    libId: 'Device:R',
    reference,
    value: '1k',
    footprint: '',
    unit: 1,
    fields: {},
    inBom: true,
    onBoard: true,
    power: false,
    at: { x: 0, y },
    pins: [{ number: '1', name: '', type: 'passive', hidden: false, at: { x: 0, y } }],
  };
}

const design = (...sheets: SheetContent[]): Schematic => ({ root: 'r.kicad_sch', sheets, files: [] });

/** The references sharing a net with `ref`, sorted. */
function netOf(sch: Schematic, ref: string): string[] {
  const net = connectivity(sch).nets.find((n) => n.nodes.some((x) => x.reference === ref));
  return (net?.nodes.map((x) => x.reference) ?? []).sort();
}

describe('vector buses through sheet pins', () => {
  // Root: FP_IO[0..15] drives the bus to sheet c's pin IO[0..15]; J9 on FP_IO9, J1 on FP_IO1.
  // Sheet c: its IO[0..15] port and label; a second bus labelled IO[8..15] goes to sheet g's pin IO[0..7].
  // Sheet g: port IO[0..7]; R1 on IO1, which is c's IO9, which is the root's FP_IO9.
  const root = sheet('/', [
    { bus: true, labels: [['local', 'FP_IO[0..15]']], pins: [{ name: 'IO[0..15]', child: '/c/' }] },
    { labels: [['local', 'FP_IO9']], part: 'J9' },
    { labels: [['local', 'FP_IO1']], part: 'J1' },
  ]);
  const c = sheet('/c/', [
    {
      bus: true,
      labels: [
        ['hierarchical', 'IO[0..15]'],
        ['local', 'IO[0..15]'],
      ],
    },
    { bus: true, labels: [['local', 'IO[8..15]']], pins: [{ name: 'IO[0..7]', child: '/c/g/' }] },
  ]);
  const g = sheet('/c/g/', [
    { bus: true, labels: [['hierarchical', 'IO[0..7]']] },
    { labels: [['local', 'IO1']], part: 'R1' },
  ]);

  it("joins a child's member to the parent driver's member at the same place, not the same index", () => {
    expect(netOf(design(root, c, g), 'R1')).toEqual(['J9', 'R1']);
    expect(netOf(design(root, c, g), 'J1')).toEqual(['J1']);
  });

  it('a sheet pin driving its own bus (no label) maps its members one to one', () => {
    const c2 = sheet('/c/', [
      { bus: true, labels: [['hierarchical', 'IO[0..15]']], pins: [{ name: 'IO[0..15]', child: '/c/g/' }] },
    ]);
    const g2 = sheet('/c/g/', [
      { bus: true, labels: [['hierarchical', 'IO[0..15]']] },
      { labels: [['local', 'IO9']], part: 'R1' },
    ]);
    expect(netOf(design(root, c2, g2), 'R1')).toEqual(['J9', 'R1']);
  });

  it("the child's local label drives the child's bus: positions follow it, not the port's", () => {
    // Sheet g2 names its port's bus D[4..11] locally: D5 is its place 1, the parent's IO[8..15] place 1 is IO9.
    const g2 = sheet('/c/g/', [
      {
        bus: true,
        labels: [
          ['hierarchical', 'IO[0..7]'],
          ['local', 'D[4..11]'],
        ],
      },
      { labels: [['local', 'D5']], part: 'R1' },
    ]);
    expect(netOf(design(root, c, g2), 'R1')).toEqual(['J9', 'R1']);
  });
});
