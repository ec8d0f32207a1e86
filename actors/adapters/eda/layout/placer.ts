import { type Box, mulberry32, placedBox, rotate, ROTATIONS, type Rotation } from './geometry.ts';
import type { DecouplingPair, PlacePart } from './roles.ts';
import { costOf, type CostTerms, type Placement, type PlaceProblem } from './placer-cost.ts';

export type { Placement, PlaceProblem } from './placer-cost.ts';

/** The placer could not place: the outline is too small, or no legal placement was found (docs/layout.md). */
export class PlacementError extends Error {
  override name = 'PlacementError';
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown>) {
    super(message);
    this.details = details;
  }
}

export interface PlaceResult {
  placements: Placement[];
  terms: CostTerms;
  /** The seed that gave the legal placement (the first of seed, seed + 1, ... that did). */
  seed: number;
  restarts: number;
  iterations: number;
}

/** Sides as outward directions in KiCad's frame (y down): top, right, bottom, left. */
const SIDES: [number, number][] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

/**
 * The side of a connector's courtyard that faces out of the board: the one farthest from the centre of its pins on a
 * net, each pin number counted once at the mean of its pads (a USB receptacle's opening is opposite its signal pads;
 * its many shield pads count as one pin); a symmetric part (a pin header) faces down.
 */
export function facingSide(part: PlacePart): number {
  const pins = new Map<string, { x: number; y: number; n: number }>();
  for (const p of part.pads) {
    if (!p.net) continue;
    const q = pins.get(p.number) ?? { x: 0, y: 0, n: 0 };
    pins.set(p.number, { x: q.x + p.x, y: q.y + p.y, n: q.n + 1 });
  }
  const centres = [...pins.values()].map((q) => ({ x: q.x / q.n, y: q.y / q.n }));
  const cx = centres.reduce((s, p) => s + p.x, 0) / (centres.length || 1);
  const cy = centres.reduce((s, p) => s + p.y, 0) / (centres.length || 1);
  const b = part.box;
  const reach = [cy - b.y1, b.x2 - cx, b.y2 - cy, cx - b.x1];
  let best = 2;
  for (let s = 0; s < 4; s++) if (reach[s]! > reach[best]! + 1e-6) best = s;
  return best;
}

/** The rotation that turns the footprint's side `local` to face the board side `edge`. */
export function rotationFacing(local: number, edge: number): Rotation {
  const [lx, ly] = SIDES[local]!;
  return ROTATIONS.find((r) => {
    const [x, y] = rotate(lx, ly, r);
    return Math.round(x) === SIDES[edge]![0] && Math.round(y) === SIDES[edge]![1];
  })!;
}

/** A connector flush with board side `edge` at `t` (0..1 along that side), its facing side out. */
function onEdge(part: PlacePart, facing: number, edge: number, t: number, W: number, H: number): Placement {
  const r = rotationFacing(facing, edge);
  const b = placedBox(part.box, 0, 0, r);
  const along = edge % 2 === 0;
  const span = along ? W - (b.x2 - b.x1) : H - (b.y2 - b.y1);
  const s = Math.max(0, span) * t;
  const x = along ? s - b.x1 : edge === 1 ? W - b.x2 : -b.x1;
  const y = along ? (edge === 0 ? -b.y1 : H - b.y2) : s - b.y1;
  return { ref: part.ref, x, y, rotation: r, edge, t };
}

/**
 * Simulated annealing (Kirkpatrick et al. 1983) over positions and quarter-turn rotations with a seeded PRNG: the
 * same problem and seed give the same placement. Hard rules enter as heavy penalties and are checked after: courtyards
 * never overlap (kept `courtyard_gap` apart), every courtyard inside the outline shrunk by `edge_clearance`, each
 * connector flush with an edge (by construction: it only slides along the edges). Soft terms: half-perimeter
 * wirelength, each decoupling capacitor's pad to its IC pin, the sensor kept `heat_distance` from the regulator.
 * A placement that breaks a hard rule is tried again from the next seed, up to `restarts` times.
 */
export function place(problem: PlaceProblem, opts: { seed?: number; restarts?: number } = {}): PlaceResult {
  const { parts, outline } = problem;
  const { edge_clearance: ec, courtyard_gap: gap } = problem.rules;
  const need = parts.reduce((s, p) => s + (p.box.x2 - p.box.x1 + gap) * (p.box.y2 - p.box.y1 + gap), 0);
  const have = (outline.width - 2 * ec) * (outline.height - 2 * ec);
  if (need > have)
    throw new PlacementError(
      `the outline ${outline.width} x ${outline.height} mm is too small for the parts: their courtyards with ${gap} mm between them need ${need.toFixed(0)} mm², the outline inside its ${ec} mm edge clearance has ${Math.max(0, have).toFixed(0)} mm²`,
      { outline, needed_mm2: Math.round(need), available_mm2: Math.round(Math.max(0, have)) },
    );
  for (const p of parts) {
    const side = Math.min(p.box.x2 - p.box.x1, p.box.y2 - p.box.y1);
    const long = Math.max(p.box.x2 - p.box.x1, p.box.y2 - p.box.y1);
    if (long > Math.max(outline.width, outline.height) - 2 * ec || side > Math.min(outline.width, outline.height))
      throw new PlacementError(
        `the outline ${outline.width} x ${outline.height} mm is too small for ${p.ref}: its courtyard is ${long.toFixed(2)} x ${side.toFixed(2)} mm`,
        { outline, ref: p.ref },
      );
  }
  const seed0 = opts.seed ?? 1;
  const restarts = opts.restarts ?? 6;
  let last: { placements: Placement[]; terms: CostTerms } | undefined;
  let iterations = 0;
  for (let k = 0; k <= restarts; k++) {
    const run = anneal(problem, seed0 + k);
    iterations += run.iterations;
    last = run;
    if (ruleBreaks(problem, run.placements).length === 0)
      return { placements: run.placements, terms: run.terms, seed: seed0 + k, restarts: k, iterations };
  }
  const breaks = ruleBreaks(problem, last!.placements);
  throw new PlacementError(
    `no legal placement in the outline ${outline.width} x ${outline.height} mm after ${restarts + 1} annealing runs: ${breaks.slice(0, 8).join(', ')}; give a larger outline`,
    { outline, breaks },
  );
}

/** The hard rules a placement breaks, exactly (no margin): courtyards too close, courtyards outside. */
export function ruleBreaks(problem: PlaceProblem, placements: Placement[]): string[] {
  const { parts, outline } = problem;
  const { edge_clearance: ec, courtyard_gap: gap } = problem.rules;
  const boxes = placements.map((pl, i) => placedBox(parts[i]!.box, pl.x, pl.y, pl.rotation));
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++)
    for (let j = i + 1; j < parts.length; j++)
      if (overlaps(boxes[i]!, boxes[j]!, gap))
        out.push(`courtyards ${parts[i]!.ref} and ${parts[j]!.ref} closer than ${gap} mm`);
  boxes.forEach((b, i) => {
    const e = parts[i]!.role === 'connector' ? 0 : ec;
    if (b.x1 < e - 1e-6 || b.y1 < e - 1e-6 || b.x2 > outline.width - e + 1e-6 || b.y2 > outline.height - e + 1e-6)
      out.push(`${parts[i]!.ref} outside the outline's ${e} mm clearance`);
  });
  return out;
}

const overlaps = (a: Box, b: Box, gap: number) =>
  Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) > -gap + 1e-6 &&
  Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) > -gap + 1e-6;

function anneal(problem: PlaceProblem, seed: number) {
  const { parts, outline } = problem;
  const W = outline.width;
  const H = outline.height;
  const rnd = mulberry32(seed);
  const facing = parts.map((p) => (p.role === 'connector' ? facingSide(p) : 0));
  // Start: connectors spread over the four sides, the rest on a grid around the centre.
  let connectors = 0;
  const cols = Math.ceil(Math.sqrt(parts.length));
  let state: Placement[] = parts.map((p, i) => {
    if (p.role === 'connector') {
      const edge = (2 + connectors++) % 4;
      return onEdge(p, facing[i]!, edge, 0.5, W, H);
    }
    const r: Rotation = 0;
    return {
      ref: p.ref,
      x: (W * ((i % cols) + 0.5)) / cols,
      y: (H * (Math.floor(i / cols) + 0.5)) / cols,
      rotation: r,
    };
  });
  let cost = costOf(problem, state);
  let best = { state, cost };
  const total = 3000 * parts.length;
  const t0 = Math.max(W, H) * 2;
  const t1 = 0.01;
  for (let it = 0; it < total; it++) {
    const temp = t0 * Math.pow(t1 / t0, it / total);
    const step = Math.max(0.2, (Math.max(W, H) / 2) * (temp / t0));
    const i = Math.floor(rnd() * parts.length);
    const p = parts[i]!;
    const cur = state[i]!;
    let next: Placement;
    const u = rnd();
    if (p.role === 'connector') {
      const edge = u < 0.1 ? Math.floor(rnd() * 4) : cur.edge!;
      const t = u < 0.1 ? rnd() : Math.min(1, Math.max(0, cur.t! + (rnd() - 0.5) * (step / Math.max(W, H))));
      next = onEdge(p, facing[i]!, edge, t, W, H);
    } else if (u < 0.15) {
      next = { ...cur, rotation: ROTATIONS[Math.floor(rnd() * 4)]! };
    } else if (u < 0.22) {
      const j = Math.floor(rnd() * parts.length);
      if (parts[j]!.role === 'connector' || j === i) continue;
      const swapped = state.slice();
      swapped[i] = { ...cur, x: state[j]!.x, y: state[j]!.y };
      swapped[j] = { ...state[j]!, x: cur.x, y: cur.y };
      const c = costOf(problem, swapped);
      if (c.total <= cost.total || rnd() < Math.exp((cost.total - c.total) / temp)) {
        state = swapped;
        cost = c;
        if (c.total < best.cost.total) best = { state, cost };
      }
      continue;
    } else {
      next = { ...cur, x: cur.x + (rnd() * 2 - 1) * step, y: cur.y + (rnd() * 2 - 1) * step };
    }
    const trial = state.slice();
    trial[i] = next;
    const c = costOf(problem, trial);
    if (c.total <= cost.total || rnd() < Math.exp((cost.total - c.total) / temp)) {
      state = trial;
      cost = c;
      if (c.total < best.cost.total) best = { state, cost };
    }
  }
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const placements = best.state.map((s) => ({ ...s, x: round(s.x), y: round(s.y) }));
  return { placements, terms: costOf(problem, placements).terms, iterations: total };
}

export type { DecouplingPair };
