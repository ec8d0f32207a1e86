import type { Box } from './geometry.ts';
import type { Netlist } from './netlist.ts';

/** What the placer treats a part as (docs/layout.md "Roles"). */
export type Role = 'connector' | 'regulator' | 'sensor' | 'ic' | 'decoupling' | 'other';

/** A footprint as measured by pcbnew (pcbnew/place_board.py measure): courtyard box and pads around its origin. */
export interface Measured {
  ref: string;
  courtyard: Box;
  has_courtyard: boolean;
  pads: { number: string; x: number; y: number; through_hole: boolean }[];
}

export interface PlacePad {
  number: string;
  x: number;
  y: number;
  net: string | null;
}

export interface PlacePart {
  ref: string;
  role: Role;
  box: Box;
  pads: PlacePad[];
}

/** A decoupling capacitor and the IC pin it serves: its pad on that pin's net should sit close to the pin. */
export interface DecouplingPair {
  cap: string;
  ic: string;
  pin: string;
  net: string;
}

/** Ground nets by name (`GND`, `/GND`, `AGND`, `GNDA`, `VSS`, `0V`...): decoupling returns, and poured, not routed. */
export const isGroundNet = (net: string) => /^\/?(A|D|P)?(GND[A-Z0-9_]*|VSS[A-Z0-9_]*|0V)$/i.test(net);

/** Nets of power: a name like `+3V3`, `+5V`, `VCC`, `VBUS`, or ground; the Power net class (wider tracks). */
export const isPowerNet = (net: string) =>
  isGroundNet(net) || /^\/?(\+\d[\w.]*|V(CC|DD|BUS|IN|SYS|BAT)[\w.]*|\d+V\d*)$/i.test(net);

/**
 * The role of each symbol, from KiCad's own conventions: a reference `J`/`P` or a footprint of a `Connector*`
 * library is a connector; a `Regulator*` symbol library a regulator; a `Sensor*` library a sensor; other `U` parts ICs;
 * a two-pad `C` between a ground net and a net an IC pin is on a decoupling capacitor.
 */
export function roleOf(
  ref: string,
  lib: string,
  footprint: string,
  nets: (string | null)[],
  icNets: Set<string>,
): Role {
  const prefix = /^[A-Za-z#]+/.exec(ref)?.[0]?.toUpperCase() ?? '';
  if (prefix === 'J' || prefix === 'P' || footprint.startsWith('Connector')) return 'connector';
  if (prefix === 'U' || prefix === 'IC') {
    if (/^Regulator/i.test(lib)) return 'regulator';
    if (/^Sensor/i.test(lib)) return 'sensor';
    return 'ic';
  }
  if (prefix === 'C' && nets.length === 2) {
    const [a, b] = nets;
    const other = a && isGroundNet(a) ? b : b && isGroundNet(b) ? a : null;
    if (other && icNets.has(other)) return 'decoupling';
  }
  return 'other';
}

/**
 * The parts to place, with their roles and pads' nets, and the decoupling pairs: each IC pin on a net a decoupling
 * capacitor sits on (power pins first, in reference and pin order) takes the next capacitor of that net not yet
 * given a pin; a capacitor left over serves the first pin of its net again. Deterministic.
 */
export function placementParts(
  netlist: Netlist,
  measured: Measured[],
): { parts: PlacePart[]; pairs: DecouplingPair[] } {
  const padNet = new Map<string, string>();
  const pinType = new Map<string, string>();
  for (const n of netlist.nets)
    for (const node of n.nodes) {
      padNet.set(`${node.ref}\u0000${node.pin}`, n.name);
      pinType.set(`${node.ref}\u0000${node.pin}`, node.pintype);
    }
  const isIc = (ref: string) => /^(U|IC)\d/i.test(ref);
  const icNets = new Set(
    netlist.nets.filter((n) => n.nodes.some((x) => isIc(x.ref)) && !isGroundNet(n.name)).map((n) => n.name),
  );
  const byRef = new Map(netlist.components.map((c) => [c.ref, c]));
  const parts: PlacePart[] = measured.map((m) => {
    const c = byRef.get(m.ref)!;
    const pads = m.pads.map((p) => ({ ...p, net: padNet.get(`${m.ref}\u0000${p.number}`) ?? null }));
    const nets = [...new Set(pads.map((p) => p.number))].map((n) => padNet.get(`${m.ref}\u0000${n}`) ?? null);
    return { ref: m.ref, role: roleOf(m.ref, c.lib, c.footprint, nets, icNets), box: m.courtyard, pads };
  });
  const caps = parts.filter((p) => p.role === 'decoupling');
  const capNet = (p: PlacePart) => p.pads.map((x) => x.net).find((n) => n && !isGroundNet(n))!;
  const pins: { ic: string; pin: string; net: string; power: boolean }[] = [];
  for (const n of netlist.nets) {
    if (!caps.some((c) => capNet(c) === n.name)) continue;
    for (const node of n.nodes)
      if (isIc(node.ref)) pins.push({ ic: node.ref, pin: node.pin, net: n.name, power: /^power_/.test(node.pintype) });
  }
  const natural = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
  pins.sort((a, b) => Number(b.power) - Number(a.power) || natural(a.ic, b.ic) || natural(a.pin, b.pin));
  const pairs: DecouplingPair[] = [];
  const free = [...caps].sort((a, b) => natural(a.ref, b.ref));
  for (const pin of pins) {
    const k = free.findIndex((c) => capNet(c) === pin.net);
    if (k >= 0) pairs.push({ cap: free.splice(k, 1)[0]!.ref, ic: pin.ic, pin: pin.pin, net: pin.net });
  }
  for (const c of free) {
    const pin = pins.find((p) => p.net === capNet(c));
    if (pin) pairs.push({ cap: c.ref, ic: pin.ic, pin: pin.pin, net: pin.net });
  }
  return { parts, pairs };
}
