import * as replicad from 'replicad';
import type { Shape3D } from 'replicad';
import { booleanChecked, checked, edgeFeature } from './check.ts';
import { KernelArgumentError } from './errors.ts';

import { SHAPE_TYPES, type ShapeType } from './shape-types.ts';

/** A hole through a part along Z at (x, y): diameter or radius in mm (the spec leaves the Hole record open). */
export interface HoleSpec {
  x?: number;
  y?: number;
  position?: number[];
  diameter?: number;
  radius?: number;
}

/** Reads numeric parameters with aliases and defaults, recording every value actually used. */
class Params {
  readonly used: Record<string, number> = {};
  readonly given: Record<string, number>;
  private readonly kind: string;
  constructor(given: Record<string, number>, kind: string) {
    this.given = given;
    this.kind = kind;
  }
  /** A positive dimension; `names` are aliases, `half` marks a diameter alias (value / 2). */
  dim(name: string, opts: { aliases?: string[]; diameter?: string; fallback?: number } = {}): number {
    let v = [name, ...(opts.aliases ?? [])].map((n) => this.given[n]).find((x) => x !== undefined);
    if (v === undefined && opts.diameter && this.given[opts.diameter] !== undefined) v = this.given[opts.diameter] / 2;
    v ??= opts.fallback;
    if (v === undefined)
      throw new KernelArgumentError(
        `${this.kind} needs parameter ${name}${opts.diameter ? ` (or ${opts.diameter})` : ''}`,
        { parameter: name, shape_type: this.kind },
      );
    if (!Number.isFinite(v) || v <= 0)
      throw new KernelArgumentError(`${this.kind} parameter ${name} must be a positive number of mm, got ${v}`, {
        parameter: name,
        value: v,
      });
    this.used[name] = v;
    return v;
  }
  /** An optional number (may be zero or negative, e.g. a position); recorded only when given. */
  opt(name: string, fallback?: number): number | undefined {
    const v = this.given[name] ?? fallback;
    if (v !== undefined) this.used[name] = v;
    return v;
  }
}

function cone(r1: number, r2: number, h: number): Shape3D {
  // No BRepPrimAPI_MakeCone in this build (notes): a loft to a point or to a second circle is exact.
  const base = replicad.sketchCircle(r1);
  return r2 > 0 ? base.loftWith(replicad.sketchCircle(r2, { origin: h })) : base.loftWith([], { endPoint: [0, 0, h] });
}

function torus(major: number, minor: number): Shape3D {
  if (minor >= major)
    throw new KernelArgumentError(`torus minor_radius (${minor}) must be smaller than major_radius (${major})`);
  return replicad.drawCircle(minor).translate(major, 0).sketchOnPlane('XZ').revolve([0, 0, 1]) as Shape3D;
}

/** The base solid of a shape type, before fillets, chamfers and holes. */
function baseSolid(kind: ShapeType, p: Params): Shape3D {
  switch (kind) {
    case 'box':
    case 'beam': {
      const [l, w, h] = [
        p.dim('length', { aliases: ['x'] }),
        p.dim('width', { aliases: ['y'] }),
        p.dim('height', { aliases: ['z', 'thickness'] }),
      ];
      return p.opt('centered', 0) ? replicad.makeBaseBox(l, w, h) : replicad.makeBox([0, 0, 0], [l, w, h]);
    }
    case 'plate':
      return replicad.makeBaseBox(p.dim('length'), p.dim('width'), p.dim('thickness', { aliases: ['height'] }));
    case 'cylinder':
      return replicad.makeCylinder(p.dim('radius', { diameter: 'diameter' }), p.dim('height', { aliases: ['length'] }));
    case 'sphere':
      return replicad.makeSphere(p.dim('radius', { diameter: 'diameter' }));
    case 'cone': {
      const r1 = p.dim('radius1', { aliases: ['radius', 'bottom_radius'], diameter: 'diameter' });
      const r2 = p.opt('radius2', p.opt('top_radius', 0)) ?? 0;
      if (r2 < 0) throw new KernelArgumentError('cone radius2 must not be negative');
      return cone(r1, r2, p.dim('height'));
    }
    case 'torus':
      return torus(p.dim('major_radius'), p.dim('minor_radius'));
    case 'tube': {
      const ro = p.dim('outer_radius', { diameter: 'outer_diameter' });
      const wall = p.opt('wall_thickness');
      const ri = wall !== undefined ? ro - wall : p.dim('inner_radius', { diameter: 'inner_diameter' });
      if (ri >= ro)
        throw new KernelArgumentError(`tube inner radius (${ri}) must be smaller than the outer radius (${ro})`);
      const h = p.dim('height', { aliases: ['length'] });
      return booleanChecked(replicad.makeCylinder(ro, h), replicad.makeCylinder(ri, h), 'subtract');
    }
  }
}

/** Hole centres of a plate: `hole_count` holes on the X centreline, `hole_edge_offset` from the ends (default 20 mm). */
function plateHoles(p: Params, length: number): HoleSpec[] {
  const count = p.opt('hole_count', 0) ?? 0;
  if (!count) return [];
  const d = p.dim('hole_diameter', { fallback: 6 });
  const offset = p.opt('hole_edge_offset', Math.min(20, length / 4)) ?? 20;
  const span = length - 2 * offset;
  return Array.from({ length: count }, (_, i) => ({
    x: count === 1 ? 0 : -length / 2 + offset + (i * span) / (count - 1),
    y: 0,
    diameter: d,
  }));
}

/** Cuts through-holes along Z with one compound tool (one boolean for all holes, notes: faster than sequential cuts). */
export function cutHoles(solid: Shape3D, holes: HoleSpec[], zRange?: [number, number]): Shape3D {
  if (!holes.length) return solid;
  const bb = zRange ? undefined : solid.boundingBox.bounds;
  const [z0, z1] = zRange ? [zRange[0] - 1, zRange[1] + 1] : [bb![0][2] - 1, bb![1][2] + 1];
  const tools = holes.map((h, i) => {
    const r = h.radius ?? (h.diameter !== undefined ? h.diameter / 2 : undefined);
    if (!r || r <= 0) throw new KernelArgumentError(`hole ${i} needs a positive diameter or radius`, { hole: i });
    const [x, y] = h.position ?? [h.x ?? 0, h.y ?? 0];
    return replicad.makeCylinder(r, z1 - z0, [x, y, z0]);
  });
  const tool =
    tools.length === 1 ? tools[0] : (replicad.makeCompound(tools) as Shape3D); /* makeCompound deletes its inputs */
  const out = booleanChecked(solid, tool, 'subtract');
  tool.delete();
  return out;
}

/**
 * Builds a parametric part: base solid, then fillet or chamfer of every edge (before holes, SPEC "Assembly part"),
 * then holes, then the optional placement (x, y, z). Every step is checked; returns the parameters used.
 */
export function buildPart(
  kind: string,
  given: Record<string, number>,
  holes: HoleSpec[] = [],
): { shape: Shape3D; parameters_used: Record<string, number> } {
  if (!(SHAPE_TYPES as readonly string[]).includes(kind))
    throw new KernelArgumentError(`unknown shape_type ${kind}; known: ${SHAPE_TYPES.join(', ')}`, { shape_type: kind });
  const p = new Params(given, kind);
  let shape = checked(`${kind}`, () => baseSolid(kind as ShapeType, p));
  const fillet = p.opt('fillet');
  const chamfer = p.opt('chamfer');
  if (fillet && chamfer) throw new KernelArgumentError('give fillet or chamfer, not both');
  if (fillet || chamfer) shape = swap(shape, edgeFeature(shape, fillet ? 'fillet' : 'chamfer', (fillet ?? chamfer)!));
  const allHoles = [...(kind === 'plate' ? plateHoles(p, p.used.length) : []), ...holes];
  const zRange: [number, number] | undefined =
    kind === 'plate'
      ? [0, p.used.thickness]
      : kind === 'box' || kind === 'beam'
        ? [p.opt('centered') ? -p.used.height / 2 : 0, p.opt('centered') ? p.used.height / 2 : p.used.height]
        : undefined;
  if (allHoles.length) shape = swap(shape, cutHoles(shape, allHoles, zRange));
  const [x, y, z] = [p.opt('x'), p.opt('y'), p.opt('z')];
  if (x || y || z) shape = shape.translate([x ?? 0, y ?? 0, z ?? 0]);
  return { shape, parameters_used: p.used };
}

/** Deletes the old shape and returns the new one (features do not consume their inputs). */
export function swap<T extends Shape3D>(old: Shape3D, next: T): T {
  if (old !== next) old.delete();
  return next;
}
