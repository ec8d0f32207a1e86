import * as replicad from 'replicad';
import type { Shape3D } from 'replicad';
import type { z } from 'zod';
import type { SessionOpArgs } from '../../../contracts/cad-session.ts';
import { booleanChecked, checked, edgeFeature } from '../check.ts';
import { KernelError } from '../errors.ts';
import { boundingBox, volumeOf } from '../measure.ts';
import { buildPart, swap } from '../parametric.ts';
import type { DocObject, SessionDoc } from './doc.ts';
import { translation, type Vec3 } from './placement.ts';
import { placeSingleSketch, placeSketch, sweep } from './sketch.ts';

/** Validated arguments of a session operation. */
export type OpArgs<K extends keyof typeof SessionOpArgs> = z.output<(typeof SessionOpArgs)[K]>;

/** A new solid, or (with body_id) the solid fused into a body; the checked result becomes the object's geometry. */
function intoBody(
  doc: SessionDoc,
  shape: Shape3D,
  bodyId: string | undefined,
  name: string | undefined,
  op: string,
): Record<string, unknown> {
  if (!bodyId) {
    const id = doc.nextId('part');
    return doc.describe(doc.add({ id, kind: 'solid', name: name ?? id, shape }));
  }
  const body = doc.get(bodyId, ['body', 'solid']);
  doc.setShape(body, body.shape ? swap(shape, booleanChecked(body.shape, shape, 'union')) : shape);
  return { ...doc.describe(body), feature: op };
}

function sketchOf(doc: SessionDoc, id: string) {
  return doc.get(id, ['sketch']).sketch!;
}

/** Edge selections of fillet_edges and chamfer_edges, relative to the solid's bounding box. */
function edgeFilter(
  shape: Shape3D,
  sel: OpArgs<'fillet_edges'>['edges'],
): ((f: replicad.EdgeFinder) => replicad.EdgeFinder) | undefined {
  const bb = boundingBox(shape);
  if (sel === 'all') return undefined;
  if (sel === 'vertical') return (f) => f.inDirection('Z');
  if (sel === 'horizontal') return (f) => f.parallelTo('XY');
  return (f) => f.inPlane('XY', sel === 'top' ? bb.max[2] : bb.min[2]);
}

/** Face selections of shell_solid (the faces left open), by the bounding box sides they lie on. */
function faceFilter(
  shape: Shape3D,
  sides: OpArgs<'shell_solid'>['open_faces'],
): (f: replicad.FaceFinder) => replicad.FaceFinder {
  const bb = boundingBox(shape);
  const one = (side: (typeof sides)[number]) => (f: replicad.FaceFinder) => {
    if (side === 'top' || side === 'bottom') return f.inPlane('XY', [0, 0, side === 'top' ? bb.max[2] : bb.min[2]]);
    if (side === 'front' || side === 'back') return f.inPlane('XZ', [0, side === 'front' ? bb.min[1] : bb.max[1], 0]);
    return f.inPlane('YZ', [side === 'left' ? bb.min[0] : bb.max[0], 0, 0]);
  };
  return (f) => f.either(sides.map(one));
}

/** Fuses copies into a solid: one checked fuse with a compound; on a defect, one checked boolean per copy. */
function fuseCopies(base: Shape3D, copies: Shape3D[], what: string): Shape3D {
  const v = volumeOf(base);
  const compound = replicad.makeCompound(copies.map((c) => c.clone())) as Shape3D; // makeCompound deletes its inputs
  try {
    return checked(what, () => base.fuse(compound), { minVolume: v, maxVolume: v * (copies.length + 1) });
  } catch (err) {
    if (!(err instanceof KernelError)) throw err;
    let acc = base.clone();
    for (const c of copies) acc = swap(acc, booleanChecked(acc, c, 'union'));
    return acc;
  } finally {
    compound.delete();
    copies.forEach((c) => c.delete());
  }
}

/** The geometric session operations: primitives, sketches and sketch features, dress-up features, patterns, booleans. */
export const featureOps = {
  create_primitive(doc: SessionDoc, a: OpArgs<'create_primitive'>) {
    const { x = 0, y = 0, z = 0, ...params } = a.parameters;
    const { shape, parameters_used } = buildPart(a.shape_type, params);
    const id = doc.nextId('part');
    const o = doc.add({ id, kind: 'solid', name: a.name ?? id, shape });
    if (x || y || z) {
      o.shape = shape.translate([x, y, z]);
      o.placement = translation([x, y, z]);
    }
    return { ...doc.describe(o), parameters_used: { ...parameters_used, ...(x || y || z ? { x, y, z } : {}) } };
  },
  create_body(doc: SessionDoc, a: OpArgs<'create_body'>) {
    const id = doc.nextId('body');
    return doc.describe(doc.add({ id, kind: 'body', name: a.name ?? id }));
  },
  create_sketch(doc: SessionDoc, a: OpArgs<'create_sketch'>) {
    const sketch = { plane: a.plane, offset: a.offset, profile: a.profile, holes: a.holes };
    if (a.profile.type !== 'path') placeSketch(sketch); // fails now, not at the pad, when the profile cannot be drawn
    const id = doc.nextId('sketch');
    return doc.describe(doc.add({ id, kind: 'sketch', name: a.name ?? id, sketch }));
  },
  pad_sketch(doc: SessionDoc, a: OpArgs<'pad_sketch'>) {
    const solid = checked(`pad ${a.length} mm`, () => placeSketch(sketchOf(doc, a.sketch_id)).extrude(a.length));
    return intoBody(doc, solid, a.body_id, a.name, 'pad');
  },
  pocket_sketch(doc: SessionDoc, a: OpArgs<'pocket_sketch'>) {
    const target = doc.solid(a.target_id);
    const s = sketchOf(doc, a.sketch_id);
    if (!a.through_all && !a.depth) throw new KernelError('pocket_sketch needs depth or through_all: true');
    const big = 2 * Math.hypot(...boundingBox(target.shape).size) + 1;
    const tool = a.through_all
      ? checked('pocket tool', () => placeSketch({ ...s, offset: s.offset - big }).extrude(2 * big))
      : checked('pocket tool', () => placeSketch(s).extrude(a.reversed ? a.depth! : -a.depth!));
    const before = volumeOf(target.shape);
    const out = booleanChecked(target.shape, tool, 'subtract');
    tool.delete();
    if (Math.abs(volumeOf(out) - before) <= 1e-9 * before) {
      out.delete();
      throw new KernelError(
        `the pocket removes nothing from ${a.target_id}: the sketch ${a.sketch_id} does not reach it (try reversed or through_all)`,
      );
    }
    doc.setShape(target, out);
    return { ...doc.describe(target), removed_mm3: before - volumeOf(out) };
  },
  revolve_sketch(doc: SessionDoc, a: OpArgs<'revolve_sketch'>) {
    const solid = checked(`revolve ${a.angle_deg}°`, () =>
      placeSketch(sketchOf(doc, a.sketch_id)).revolve(a.axis_direction, { origin: a.axis_origin, angle: a.angle_deg }),
    );
    return intoBody(doc, solid, a.body_id, a.name, 'revolve');
  },
  loft_sketches(doc: SessionDoc, a: OpArgs<'loft_sketches'>) {
    const [first, ...rest] = a.sketch_ids.map((id) => placeSingleSketch(sketchOf(doc, id), id));
    const solid = checked('loft', () => first.loftWith(rest, { ruled: a.ruled }));
    return intoBody(doc, solid, a.body_id, a.name, 'loft');
  },
  sweep_sketch(doc: SessionDoc, a: OpArgs<'sweep_sketch'>) {
    const solid = checked('sweep', () => sweep(sketchOf(doc, a.path_sketch_id), a.profile));
    return intoBody(doc, solid, a.body_id, a.name, 'sweep');
  },
  fillet_edges(doc: SessionDoc, a: OpArgs<'fillet_edges'>) {
    const o = doc.solid(a.object_id);
    doc.setShape(o, edgeFeature(o.shape, 'fillet', a.radius, edgeFilter(o.shape, a.edges)));
    return doc.describe(o);
  },
  chamfer_edges(doc: SessionDoc, a: OpArgs<'chamfer_edges'>) {
    const o = doc.solid(a.object_id);
    doc.setShape(o, edgeFeature(o.shape, 'chamfer', a.distance, edgeFilter(o.shape, a.edges)));
    return doc.describe(o);
  },
  shell_solid(doc: SessionDoc, a: OpArgs<'shell_solid'>) {
    const o = doc.solid(a.object_id);
    const v = volumeOf(o.shape);
    const out = checked(
      `shell ${a.thickness} mm`,
      () => o.shape.shell(a.thickness, faceFilter(o.shape, a.open_faces)),
      { maxVolume: v, differsFrom: v },
      { thickness: a.thickness },
    );
    doc.setShape(o, out);
    return doc.describe(o);
  },
  linear_pattern(doc: SessionDoc, a: OpArgs<'linear_pattern'>) {
    const o = doc.solid(a.object_id);
    const l = Math.hypot(...a.direction);
    if (!(l > 0)) throw new KernelError('direction must not be the zero vector');
    const step = a.direction.map((d) => (d / l) * a.spacing) as Vec3;
    const copies = Array.from({ length: a.count - 1 }, (_, i) =>
      o.shape.clone().translate(step.map((s) => s * (i + 1)) as Vec3),
    );
    doc.setShape(o, fuseCopies(o.shape, copies, 'linear pattern'));
    return doc.describe(o);
  },
  polar_pattern(doc: SessionDoc, a: OpArgs<'polar_pattern'>) {
    const o = doc.solid(a.object_id);
    const stepDeg = a.angle_deg >= 360 ? 360 / a.count : a.angle_deg / (a.count - 1);
    const copies = Array.from({ length: a.count - 1 }, (_, i) =>
      o.shape.clone().rotate(stepDeg * (i + 1), a.axis_origin, a.axis_direction),
    );
    doc.setShape(o, fuseCopies(o.shape, copies, 'polar pattern'));
    return doc.describe(o);
  },
  mirror_feature(doc: SessionDoc, a: OpArgs<'mirror_feature'>) {
    const o = doc.solid(a.object_id);
    const mirrored = o.shape.clone().mirror(a.plane, a.origin);
    doc.setShape(o, a.keep_original ? fuseCopies(o.shape, [mirrored], 'mirror') : mirrored);
    return doc.describe(o);
  },
  boolean(doc: SessionDoc, a: OpArgs<'boolean'>) {
    if (a.target_id === a.tool_id) throw new KernelError('target_id and tool_id must differ');
    const [target, tool] = [doc.solid(a.target_id), doc.solid(a.tool_id)];
    doc.setShape(target, booleanChecked(target.shape, tool.shape, a.operation));
    if (!a.keep_tool) doc.remove(a.tool_id);
    return { ...doc.describe(target), operation: a.operation, tool_kept: a.keep_tool };
  },
};

/** A solid object of the document (helper for the other op modules). */
export type SolidObject = DocObject & { shape: Shape3D };
