import { busMembers, type BusMember } from './bus.ts';
import type { SheetGroup } from './sheet-groups.ts';

/** A bus label or bus sheet pin of a group, with its members. */
interface BusItem {
  prio: number;
  text: string;
  members: BusMember[];
  /** A vector bus (`D[0..7]`): its members map across the hierarchy by place; a group's by member name. */
  vector: boolean;
  output: boolean;
}

/** KiCad's driver priorities among bus items: global label > local label > hierarchical label > sheet pin. */
const BUS_PRIO = { global: 6, local: 4, hierarchical: 3, sheetPin: 2 } as const;

const VECTOR = /\[\d+\.\.\d+\]$/;

/**
 * The item that drives a bus group, as KiCad's CONNECTION_SUBGRAPH::ResolveDrivers picks it: the highest priority;
 * among sheet pins an output one first; among labels the superset before its subset (the one with more members), then
 * the lower name. Undefined when no item of the group names a bus.
 */
export function busDriver(g: SheetGroup, aliases?: ReadonlyMap<string, string[]>): BusItem | undefined {
  let best: BusItem | undefined;
  const consider = (prio: number, text: string, output: boolean) => {
    const members = busMembers(text, aliases);
    if (!members) return;
    const c: BusItem = { prio, text, members, vector: VECTOR.test(text), output };
    if (!best || betterDriver(c, best)) best = c;
  };
  for (const l of g.labels) consider(BUS_PRIO[l.kind], l.text, false);
  for (const sp of g.sheetPins) consider(BUS_PRIO.sheetPin, sp.name, sp.shape === 'output');
  return best;
}

function betterDriver(a: BusItem, b: BusItem): boolean {
  if (a.prio !== b.prio) return a.prio > b.prio;
  if (a.prio === BUS_PRIO.sheetPin) return a.output && !b.output;
  if (a.members.length !== b.members.length) return a.members.length > b.members.length;
  return a.text < b.text;
}

/**
 * The keys by which a bus group's members cross the hierarchy (KiCad 9's SCH_CONNECTION::Clone): a sheet pin's child
 * and the child's hierarchical label take the connection of the subgraph that drives their chain, a vector bus member
 * by member in order (`IO[0..7]` behind a parent's `IO[8..15]` label carries IO8..IO15), a group bus by member name.
 * So each side joins the key of place p to its own driver's member at place p: parent and child meet at their
 * drivers' places whatever the port's own range. Returns the pairs (member index, key) to join.
 */
export function hierarchyKeys(
  g: SheetGroup,
  sheetPath: string,
  driver: BusItem,
  aliases?: ReadonlyMap<string, string[]>,
): [string, string][] {
  const out: [string, string][] = [];
  const ports: [string, string][] = [
    ...g.labels.filter((l) => l.kind === 'hierarchical').map((l): [string, string] => [sheetPath, l.text]),
    ...g.sheetPins.map((sp): [string, string] => [sp.child, sp.name]),
  ];
  for (const [sheet, text] of ports) {
    if (driver.vector) driver.members.forEach((m, p) => out.push([m.index, `H:${sheet}:${text}#@${p}`]));
    else for (const m of busMembers(text, aliases) ?? []) out.push([m.index, `H:${sheet}:${text}#${m.index}`]);
  }
  return out;
}
