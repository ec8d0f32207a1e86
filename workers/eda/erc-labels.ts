import type { PlacedGroup } from './connectivity.ts';
import type { ErcItem } from './erc.types.ts';
import type { Violations } from './erc-violations.ts';
import type { Label, Schematic, SheetPin } from './schematic.types.ts';

const labelItem = (l: Label): ErcItem => ({ kind: 'label', text: l.text, position_mm: l.at });
const sheetPinItem = (p: SheetPin): ErcItem => ({ kind: 'sheet_pin', text: p.name, position_mm: p.at });
const KIND_NAME = { local: 'Label', global: 'Global label', hierarchical: 'Hierarchical label' } as const;
/** Which label of a group KiCad judges: its driver (global over local over hierarchical). */
const RANK = { global: 3, local: 2, hierarchical: 1 } as const;

/**
 * Labels (CONNECTION_GRAPH::ercCheckLabels, per non-bus sheet group without a no-connect flag) and the hierarchy
 * (ERC_TESTER::TestHierarchicalSheets):
 * - `label_dangling`: a label touching no wire, pin or sheet pin; or the group's label with no pin or sheet pin in its
 *   group and nothing else to reach: a local label whose name no other group of the sheet instance uses, a
 *   hierarchical label whose sheet pin in the parent meets nothing but wires;
 * - `global_label_single`: a global label whose net is this group alone with at most one pin (used once in the design);
 * - `hier_label_mismatch`: a sheet pin with no hierarchical label of its name in the child, or a hierarchical label
 *   with no sheet pin of its name on the sheet symbol, per sheet instance.
 */
export function labelChecks(sch: Schematic, groups: PlacedGroup[], v: Violations) {
  const groupsOfNet = new Map<number, number>();
  for (const g of groups) if (g.net) groupsOfNet.set(g.net, (groupsOfNet.get(g.net) ?? 0) + 1);
  const localUse = new Map<string, number>();
  const groupOfSheetPin = new Map<SheetPin, PlacedGroup>();
  for (const g of groups) {
    for (const t of new Set(g.labels.filter((l) => l.kind === 'local').map((l) => l.text))) {
      const k = `${g.sheet.instance.path}\u0000${t}`;
      localUse.set(k, (localUse.get(k) ?? 0) + 1);
    }
    for (const sp of g.sheetPins) groupOfSheetPin.set(sp, g);
  }
  const sheetPinsOf = new Map<string, SheetPin[]>();
  for (const s of sch.sheets)
    for (const sp of s.sheetPins) {
      const list = sheetPinsOf.get(sp.child) ?? [];
      list.push(sp);
      sheetPinsOf.set(sp.child, list);
    }

  for (const g of groups) {
    if (!g.labels.length || g.noConnects.length) continue;
    const pinCount = g.pins.length + g.sheetPins.length;
    const reported = new Set<Label>();
    if (!g.wires && !pinCount)
      for (const l of g.labels) {
        reported.add(l);
        v.add('label_dangling', `${KIND_NAME[l.kind]} ${l.text} is not connected to anything`, g.sheet, l.at, [
          labelItem(l),
        ]);
      }
    const text = g.labels.reduce((a, b) => (RANK[b.kind] > RANK[a.kind] ? b : a));
    if (reported.has(text)) continue;
    let other = pinCount > 0;
    if (text.kind === 'global') {
      other = pinCount > 1 || (groupsOfNet.get(g.net) ?? 0) > 1;
      if (!other)
        v.add(
          'global_label_single',
          `Global label ${text.text} is not connected anywhere else in the schematic`,
          g.sheet,
          text.at,
          [labelItem(text)],
        );
      continue;
    }
    if (text.kind === 'local') other ||= (localUse.get(`${g.sheet.instance.path}\u0000${text.text}`) ?? 0) > 1;
    else {
      const sp = (sheetPinsOf.get(g.sheet.instance.path) ?? []).find((p) => p.name === text.text);
      const pg = sp && groupOfSheetPin.get(sp);
      other ||= !!pg && pg.pins.length + pg.labels.length + pg.sheetPins.length > 1;
    }
    if (!other)
      v.add('label_dangling', `${KIND_NAME[text.kind]} ${text.text} is not connected to any pin`, g.sheet, text.at, [
        labelItem(text),
      ]);
  }

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
 * CONNECTION_GRAPH::ercCheckMultipleDrivers (ERCE_DRIVER_CONFLICT, a warning): a sheet group whose strongest drivers
 * (global labels, then power pins, local labels, hierarchical labels) carry two different names; KiCad keeps the first
 * (global over power over local over hierarchical, then the smallest name) for the net.
 */
export function driverConflicts(groups: PlacedGroup[], v: Violations) {
  for (const g of groups) {
    const drivers: { prio: number; name: string; item: ErcItem }[] = [];
    for (const l of g.labels)
      drivers.push({ prio: l.kind === 'global' ? 6 : l.kind === 'local' ? 4 : 3, name: l.text, item: labelItem(l) });
    for (const { symbol, pin } of g.pins) {
      const s = g.sheet.symbols[symbol]!;
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
    const best = drivers.filter((d) => d.prio === top).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const second = best.find((d) => d.name !== best[0]!.name);
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
