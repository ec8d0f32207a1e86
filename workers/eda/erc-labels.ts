import type { PlacedGroup } from './connectivity.ts';
import type { ErcItem } from './erc.types.ts';
import type { Violations } from './erc-violations.ts';
import type { Label, Schematic, SheetPin } from './schematic.types.ts';
import { UnionFind } from './union-find.ts';

const labelItem = (l: Label): ErcItem => ({ kind: 'label', text: l.text, position_mm: l.at });
const sheetPinItem = (p: SheetPin): ErcItem => ({ kind: 'sheet_pin', text: p.name, position_mm: p.at });
const KIND_NAME = { local: 'Label', global: 'Global label', hierarchical: 'Hierarchical label' } as const;

/**
 * Labels (CONNECTION_GRAPH::ercCheckLabels and ercCheckSingleGlobalLabel, per non-bus sheet group, as KiCad 9 does)
 * and the hierarchy (ERC_TESTER::TestHierarchicalSheets):
 * - `label_dangling`: a label touching no wire, pin, sheet pin or no-connect flag; or any label whose net (every
 *   group of it: same names, the hierarchy) has no pin, or one pin and no no-connect flag (KiCad counts the pins of
 *   the subgraphs sharing the net's name); a global label so is `global_label_dangling`;
 * - `global_label_single`: a global label whose name appears once in the design (KiCad 9 ignores it by default);
 * - `hier_label_mismatch`: a sheet pin with no hierarchical label of its name in the child, or a hierarchical label
 *   with no sheet pin of its name on the sheet symbol, per sheet instance.
 */
export function labelChecks(sch: Schematic, groups: PlacedGroup[], v: Violations) {
  const netPins = new Map<number, number>();
  const netNoConnect = new Set<number>();
  for (const g of groups) {
    netPins.set(g.net, (netPins.get(g.net) ?? 0) + g.pins.length);
    if (g.noConnects.length) netNoConnect.add(g.net);
  }
  const sheetPinsOf = new Map<string, SheetPin[]>();
  for (const s of sch.sheets)
    for (const sp of s.sheetPins) {
      const list = sheetPinsOf.get(sp.child) ?? [];
      list.push(sp);
      sheetPinsOf.set(sp.child, list);
    }

  for (const g of groups) {
    if (!g.labels.length) continue;
    if (!g.wires && !g.pins.length && !g.sheetPins.length && !g.noConnects.length) {
      for (const l of g.labels)
        v.add('label_dangling', `${KIND_NAME[l.kind]} ${l.text} is not connected to anything`, g.sheet, l.at, [
          labelItem(l),
        ]);
      continue;
    }
    const pins = netPins.get(g.net) ?? 0;
    if (pins > 1 || (pins === 1 && netNoConnect.has(g.net))) continue;
    for (const l of g.labels)
      if (l.kind === 'global')
        v.add(
          'global_label_dangling',
          `Global label ${l.text} is not connected anywhere else in the schematic (${pins} pin on its net)`,
          g.sheet,
          l.at,
          [labelItem(l)],
        );
      else
        v.add(
          'label_dangling',
          `${KIND_NAME[l.kind]} ${l.text} is not connected to anything (${pins} pin on its net)`,
          g.sheet,
          l.at,
          [labelItem(l)],
        );
  }

  const globals = new Map<string, { l: Label; sheet: (typeof sch.sheets)[number] }[]>();
  for (const s of sch.sheets)
    for (const l of s.labels)
      if (l.kind === 'global') globals.set(l.text, [...(globals.get(l.text) ?? []), { l, sheet: s }]);
  for (const [text, uses] of globals)
    if (uses.length === 1)
      v.add(
        'global_label_single',
        `Global label ${text} appears only once in the schematic`,
        uses[0]!.sheet,
        uses[0]!.l.at,
        [labelItem(uses[0]!.l)],
      );

  for (const s of sch.sheets) {
    if (!s.instance.parent) continue;
    const parent = sch.sheets.find((p) => p.instance.path === s.instance.parent)!;
    const pins = sheetPinsOf.get(s.instance.path) ?? [];
    const labels = s.labels.filter((l) => l.kind === 'hierarchical');
    const labelNames = new Set(labels.map((l) => l.text));
    const pinNames = new Set(pins.map((p) => p.name));
    for (const p of pins)
      if (!labelNames.has(p.name))
        v.add(
          'hier_label_mismatch',
          `Sheet pin ${p.name} has no matching hierarchical label in ${s.instance.names}`,
          parent,
          p.at,
          [sheetPinItem(p)],
        );
    for (const l of labels)
      if (!pinNames.has(l.text))
        v.add(
          'hier_label_mismatch',
          `Hierarchical label ${l.text} has no matching sheet pin in the parent sheet`,
          s,
          l.at,
          [labelItem(l)],
        );
  }
}

/**
 * CONNECTION_GRAPH::ercCheckMultipleDrivers (ERCE_DRIVER_CONFLICT, a warning): a sheet group with more than one
 * driver of the strongest kind (global labels, then power pins, local labels, hierarchical labels), even of one name,
 * and another driver of any kind with another name (tiny_tapeout's /RP2040/: two QSPI_SS labels and the hierarchical
 * label BOOT_MODE on one wire); KiCad keeps the first (global over power over local over hierarchical, then the
 * smallest name) for the net.
 */
export function driverConflicts(groups: PlacedGroup[], v: Violations) {
  // KiCad absorbs the subgraphs of one sheet instance that share a driver's name (a local or global label, a power
  // pin) into one subgraph.
  const uf = new UnionFind(groups.length);
  const firstWith = new Map<string, number>();
  groups.forEach((g, i) => {
    const names = g.labels.filter((l) => l.kind !== 'hierarchical').map((l) => l.text);
    for (const { symbol, pin } of g.pins) {
      const net = g.sheet.symbols[symbol]!.pins[pin]!.net;
      if (net !== undefined) names.push(net);
    }
    for (const name of names) {
      const k = `${g.sheet.instance.path}\u0000${name}`;
      const j = firstWith.get(k);
      if (j === undefined) firstWith.set(k, i);
      else uf.union(i, j);
    }
  });
  const absorbed = new Map<number, PlacedGroup[]>();
  groups.forEach((g, i) => {
    const r = uf.find(i);
    const list = absorbed.get(r);
    if (list) list.push(g);
    else absorbed.set(r, [g]);
  });
  for (const set of absorbed.values()) {
    const g = set[0]!;
    const drivers: { prio: number; name: string; item: ErcItem; label?: Label }[] = [];
    for (const m of set)
      for (const l of m.labels)
        drivers.push({
          prio: l.kind === 'global' ? 6 : l.kind === 'local' ? 4 : 3,
          name: l.text,
          item: labelItem(l),
          label: l,
        });
    for (const m of set)
      for (const { symbol, pin } of m.pins) {
        const s = m.sheet.symbols[symbol]!;
        const p = s.pins[pin]!;
        if (p.net !== undefined)
          drivers.push({
            prio: 5,
            name: p.net,
            item: { kind: 'pin', reference: s.reference, pin: p.number, position_mm: p.at },
          });
      }
    if (drivers.length < 2) continue;
    const top = Math.max(...drivers.map((d) => d.prio));
    // Same name and kind: the label first in the sheet's file (power pins keep the groups' order).
    const order = (a: (typeof drivers)[number], b: (typeof drivers)[number]) =>
      a.label && b.label ? g.sheet.labels.indexOf(a.label) - g.sheet.labels.indexOf(b.label) : 0;
    const best = drivers
      .filter((d) => d.prio === top)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : order(a, b)));
    // KiCad's m_multiple_drivers: more than one candidate of the top priority (even of one name); then the first
    // other driver of any priority with another name is the conflict.
    if (best.length < 2) continue;
    const others = drivers.filter((d) => d.name !== best[0]!.name).sort((a, b) => b.prio - a.prio);
    const second = others[0];
    if (!second) continue;
    const first = best[0]!;
    v.add(
      'driver_conflict',
      `Both ${first.name} and ${second.name} are attached to the same items; ${first.name} will be used in the netlist`,
      g.sheet,
      first.item.position_mm,
      [first.item, second.item],
    );
  }
}
