import { type Box, outsideArea, overlapArea, placedBox, rotate, type Rotation } from './geometry.ts';
import { type DecouplingPair, isGroundNet, type PlacePart } from './roles.ts';

/** The placement problem: parts with roles, the board outline (from 0,0), the rules, the decoupling pairs. */
export interface PlaceProblem {
  parts: PlacePart[];
  outline: { width: number; height: number };
  rules: {
    /** Courtyards keep this far from the board edge (connectors excepted: they sit on it). */
    edge_clearance: number;
    /** Courtyards keep this far apart (room for tracks between parts). */
    courtyard_gap: number;
    /** The sensor's centre keeps at least this far from the regulator's. */
    heat_distance: number;
  };
  pairs: DecouplingPair[];
}

/** One part's place: its footprint origin on the board (mm), rotation; connectors also their edge and spot on it. */
export interface Placement {
  ref: string;
  x: number;
  y: number;
  rotation: Rotation;
  edge?: number;
  t?: number;
}

export interface CostTerms {
  /** mm² of courtyards closer than the gap (hard rule: 0). */
  overlap: number;
  /** mm² of courtyards outside the outline's clearance (hard rule: 0). */
  outside: number;
  /** Half-perimeter wirelength of the nets, ground nets at a fifth (poured). */
  wirelength: number;
  /** Sum over decoupling pairs of the capacitor pad to IC pin distance (mm). */
  decoupling: number;
  /** mm the sensor lies closer to the regulator than heat_distance. */
  heat: number;
}

/** Weights of the terms (hard rules dominate: a mm² of overlap outweighs any wirelength the board can have). */
const W = { overlap: 2000, outside: 2000, wirelength: 1, decoupling: 8, heat: 20 };
/** The annealer aims this much beyond the rules so the rounded result still keeps them. */
const MARGIN = 0.02;

/** Each pad's board position for a placement. */
export function padPositions(
  part: PlacePart,
  pl: Placement,
): { number: string; net: string | null; x: number; y: number }[] {
  return part.pads.map((p) => {
    const [x, y] = rotate(p.x, p.y, pl.rotation);
    return { number: p.number, net: p.net, x: pl.x + x, y: pl.y + y };
  });
}

/** The weighted cost of a placement and its terms. Pure. */
export function costOf(problem: PlaceProblem, state: Placement[]): { total: number; terms: CostTerms } {
  const { parts, outline, rules } = problem;
  const boxes: Box[] = state.map((s, i) => placedBox(parts[i]!.box, s.x, s.y, s.rotation));
  let overlap = 0;
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      overlap += overlapArea(boxes[i]!, boxes[j]!, rules.courtyard_gap + MARGIN);
  const e = rules.edge_clearance + MARGIN;
  const inner = { x1: e, y1: e, x2: outline.width - e, y2: outline.height - e };
  const board = { x1: 0, y1: 0, x2: outline.width, y2: outline.height };
  let outside = 0;
  for (let i = 0; i < boxes.length; i++)
    outside += outsideArea(boxes[i]!, parts[i]!.role === 'connector' ? board : inner);

  const pads = new Map<string, { x: number; y: number }[]>();
  const at = new Map<string, { x: number; y: number }>();
  state.forEach((s, i) => {
    for (const p of padPositions(parts[i]!, s)) {
      at.set(`${s.ref}\u0000${p.number}`, p);
      if (!p.net) continue;
      const list = pads.get(p.net) ?? [];
      list.push(p);
      pads.set(p.net, list);
    }
  });
  let wirelength = 0;
  for (const [net, list] of pads) {
    if (list.length < 2) continue;
    let x1 = Infinity,
      y1 = Infinity,
      x2 = -Infinity,
      y2 = -Infinity;
    for (const p of list) {
      x1 = Math.min(x1, p.x);
      y1 = Math.min(y1, p.y);
      x2 = Math.max(x2, p.x);
      y2 = Math.max(y2, p.y);
    }
    wirelength += (x2 - x1 + y2 - y1) * (isGroundNet(net) ? 0.2 : 1);
  }
  let decoupling = 0;
  for (const d of problem.pairs) decoupling += pairDistance(problem, state, d, at);
  let heat = 0;
  const sensors = parts.flatMap((p, i) => (p.role === 'sensor' ? [i] : []));
  const regulators = parts.flatMap((p, i) => (p.role === 'regulator' ? [i] : []));
  for (const s of sensors)
    for (const r of regulators) {
      const a = boxes[s]!;
      const b = boxes[r]!;
      const d = Math.hypot((a.x1 + a.x2 - b.x1 - b.x2) / 2, (a.y1 + a.y2 - b.y1 - b.y2) / 2);
      heat += Math.max(0, rules.heat_distance - d);
    }
  const terms = { overlap, outside, wirelength, decoupling, heat };
  const total =
    W.overlap * overlap + W.outside * outside + W.wirelength * wirelength + W.decoupling * decoupling + W.heat * heat;
  return { total, terms };
}

/** The distance (mm) from a decoupling capacitor's pad on the pin's net to the IC pin it serves. */
export function pairDistance(
  problem: PlaceProblem,
  state: Placement[],
  d: DecouplingPair,
  at?: Map<string, { x: number; y: number }>,
): number {
  const where =
    at ??
    new Map(
      state.flatMap((s, i) => padPositions(problem.parts[i]!, s).map((p) => [`${s.ref}\u0000${p.number}`, p] as const)),
    );
  const pin = where.get(`${d.ic}\u0000${d.pin}`);
  const ci = problem.parts.findIndex((p) => p.ref === d.cap);
  if (!pin || ci < 0) return 0;
  const capPads = padPositions(problem.parts[ci]!, state[ci]!).filter((p) => p.net === d.net);
  return Math.min(...capPads.map((p) => Math.hypot(p.x - pin.x, p.y - pin.y)));
}
