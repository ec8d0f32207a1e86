import { busMembers } from './bus.ts';
import { busDriver, hierarchyKeys } from './bus-connect.ts';
import type { Label, PinType, Schematic, SheetContent } from './schematic.types.ts';
import { sheetGroups, type SheetGroup } from './sheet-groups.ts';
import { KeyedUnion } from './union-find.ts';

/** One pin on a net: `reference` and `pin` number as KiCad's netlist writes them. */
export interface NetNode {
  reference: string;
  pin: string;
  pin_name: string;
  pin_type: PinType;
  sheet: string;
}

export interface Net {
  code: number;
  name: string;
  /** No label, power symbol or sheet pin names it: KiCad's `Net-(REF-PadN)` form. */
  auto: boolean;
  nodes: NetNode[];
  labels: { kind: Label['kind']; text: string; sheet: string }[];
  /** Sheet paths (human form) the net touches. */
  sheets: string[];
  no_connect: boolean;
}

/** A sheet group with where it sits, for ERC. */
export interface PlacedGroup extends SheetGroup {
  sheet: SheetContent;
  /** The net's code, or 0 for a bus group. */
  net: number;
}

export interface Connectivity {
  nets: Net[];
  groups: PlacedGroup[];
}

/** Driver priorities (KiCad's connection graph): global label > power pin > local label > hierarchical label > sheet pin > pin. */
const PRIO = { global: 6, power: 5, local: 4, hier: 3, sheetPin: 2, pin: 1 } as const;

interface Driver {
  prio: number;
  name: string;
  depth: number;
}

const better = (a: Driver, b: Driver | undefined) =>
  !b || a.prio > b.prio || (a.prio === b.prio && (a.depth < b.depth || (a.depth === b.depth && a.name < b.name)));

/**
 * Connectivity of a whole hierarchy: groups of each sheet instance joined across the design by names. Local labels
 * join within their sheet instance, global labels and power pins (hidden power_in pins: those of power symbols and the
 * hidden supply pins of parts; a PWR_FLAG's visible power_out pin names nothing) everywhere,
 * hierarchical labels to their sheet pin in the parent; bus labels and bus sheet pins join their members by vector
 * index (or group member name). Power symbols (references starting '#') name nets but are not nodes.
 */
export function connectivity(sch: Schematic): Connectivity {
  const uf = new KeyedUnion();
  const placed: { g: SheetGroup; sheet: SheetContent; id: number }[] = [];
  const drivers: [number, Driver][] = [];
  const addDriver = (id: number, d: Driver) => drivers.push([id, d]);
  for (const sheet of sch.sheets) {
    const s = sheet.instance.path;
    const names = sheet.instance.names;
    const depth = names.split('/').length;
    sheetGroups(sheet).forEach((g, gi) => {
      const id = uf.id(`S:${s}:${gi}`);
      placed.push({ g, sheet, id });
      const join = (k: string) => uf.union(id, uf.id(k));
      if (g.bus) {
        const byIndex = new Map<string, number>();
        const member = (index: string, k: string, d?: Driver) => {
          const kid = uf.id(k);
          if (d) addDriver(kid, d);
          const first = byIndex.get(index);
          if (first === undefined) byIndex.set(index, kid);
          else uf.union(first, kid);
        };
        for (const l of g.labels)
          for (const m of busMembers(l.text, sch.busAliases) ?? []) {
            const name = escapeName(m.name);
            if (l.kind === 'global') member(m.index, `G:${m.name}`, { prio: PRIO.global, name, depth });
            else
              member(m.index, `L:${s}:${m.name}`, {
                prio: l.kind === 'local' ? PRIO.local : PRIO.hier,
                name: `${names}${name}`,
                depth,
              });
          }
        const driver = busDriver(g, sch.busAliases);
        if (driver) for (const [index, k] of hierarchyKeys(g, s, driver, sch.busAliases)) member(index, k);
        return;
      }
      for (const l of g.labels) {
        if (l.kind === 'global') {
          join(`G:${l.text}`);
          addDriver(id, { prio: PRIO.global, name: escapeName(l.text), depth });
        } else {
          join(`L:${s}:${l.text}`);
          if (l.kind === 'hierarchical') join(`H:${s}:${l.text}`);
          addDriver(id, {
            prio: l.kind === 'local' ? PRIO.local : PRIO.hier,
            name: `${names}${escapeName(l.text)}`,
            depth,
          });
        }
      }
      for (const sp of g.sheetPins) {
        join(`H:${sp.child}:${sp.name}`);
        addDriver(id, { prio: PRIO.sheetPin, name: `${names}${escapeName(sp.name)}`, depth });
      }
      for (const { symbol, pin } of g.pins) {
        const sym = sheet.symbols[symbol]!;
        const p = sym.pins[pin]!;
        if (p.net !== undefined) {
          join(`G:${p.net}`);
          addDriver(id, { prio: PRIO.power, name: escapeName(p.net), depth });
        } else if (!sym.reference.startsWith('#')) {
          addDriver(id, { prio: PRIO.pin, name: `Net-(${sym.reference}-Pad${p.number})`, depth });
        }
      }
    });
  }
  return buildNets(uf, placed, drivers);
}

function buildNets(
  uf: KeyedUnion,
  placed: { g: SheetGroup; sheet: SheetContent; id: number }[],
  drivers: [number, Driver][],
): Connectivity {
  const byRoot = new Map<number, { groups: typeof placed; driver?: Driver }>();
  for (const p of placed) {
    if (p.g.bus) continue;
    const root = uf.find(p.id);
    let e = byRoot.get(root);
    if (!e) byRoot.set(root, (e = { groups: [] }));
    e.groups.push(p);
  }
  for (const [id, d] of drivers) {
    const e = byRoot.get(uf.find(id));
    if (e && better(d, e.driver)) e.driver = d;
  }
  const nets: (Net & { root: number })[] = [];
  for (const [root, e] of byRoot) {
    const nodes = new Map<string, NetNode>();
    const labels: Net['labels'] = [];
    const sheets = new Set<string>();
    let noConnect = false;
    for (const { g, sheet } of e.groups) {
      sheets.add(sheet.instance.names);
      noConnect ||= g.noConnects.length > 0;
      for (const l of g.labels) labels.push({ kind: l.kind, text: l.text, sheet: sheet.instance.names });
      for (const { symbol, pin } of g.pins) {
        const sym = sheet.symbols[symbol]!;
        if (sym.reference.startsWith('#')) continue;
        const p = sym.pins[pin]!;
        const k = `${sym.reference}\u0000${p.number}`;
        if (!nodes.has(k))
          nodes.set(k, {
            reference: sym.reference,
            pin: p.number,
            pin_name: p.name,
            pin_type: p.type,
            sheet: sheet.instance.names,
          });
      }
    }
    if (!nodes.size && !labels.length && !e.driver) continue;
    const auto = !e.driver || e.driver.prio === PRIO.pin;
    const first = [...nodes.values()].sort(nodeOrder)[0];
    // KiCad 6 names a lone pin's net `unconnected-(REF-PadN)` and any other unlabelled one after its first pin.
    const lone = nodes.size === 1 && !labels.length && auto;
    const name =
      lone && first
        ? `unconnected-(${first.reference}-Pad${first.pin})`
        : (e.driver?.name ?? (first ? `Net-(${first.reference}-Pad${first.pin})` : `Net-(${root})`));
    nets.push({
      code: 0,
      root,
      name,
      auto,
      nodes: [...nodes.values()].sort(nodeOrder),
      labels,
      sheets: [...sheets].sort(),
      no_connect: noConnect,
    });
  }
  nets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const codeOf = new Map<number, number>();
  nets.forEach((n, i) => {
    n.code = i + 1;
    codeOf.set(n.root, n.code);
  });
  const groups: PlacedGroup[] = placed.map(({ g, sheet, id }) => ({
    ...g,
    sheet,
    net: g.bus ? 0 : (codeOf.get(uf.find(id)) ?? 0),
  }));
  return { nets: nets.map(({ root: _root, ...n }) => n), groups };
}

/** KiCad 6 escapes a '/' inside a label's text in net names (the '/' separates sheets). */
export const escapeName = (text: string) => text.replaceAll('/', '{slash}');

const collator = new Intl.Collator('en', { numeric: true });
function nodeOrder(a: NetNode, b: NetNode): number {
  return collator.compare(a.reference, b.reference) || collator.compare(a.pin, b.pin);
}
