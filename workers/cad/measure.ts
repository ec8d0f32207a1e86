import * as replicad from 'replicad';
import type { AnyShape, Shape3D } from 'replicad';
import { oc } from './kernel.ts';

/** A bounding box in the global frame, mm: min and max corners and the size along each axis. */
export interface BBox {
  min: [number, number, number];
  max: [number, number, number];
  size: [number, number, number];
}

/** What every tool that returns a solid reports about it (SPEC catalogue: volume_mm3, surface_area_mm2, bounding_box). */
export interface ShapeProperties {
  volume_mm3: number;
  surface_area_mm2: number;
  bounding_box: BBox;
  center_of_mass: [number, number, number];
  shape_type: string;
  solid_count: number;
  face_count: number;
  edge_count: number;
  is_valid: boolean;
}

/** Rounds to 6 decimals and folds -0 and 1e-16 noise to 0, so results compare and print cleanly. */
export const round6 = (v: number): number => {
  const r = Math.round(v * 1e6) / 1e6;
  return Object.is(r, -0) ? 0 : r;
};
const r3 = (p: ArrayLike<number>): [number, number, number] => [round6(p[0]), round6(p[1]), round6(p[2])];

/**
 * The tight bounding box of the exact geometry (`BRepBndLib.AddOptimal` without triangulation or tolerance
 * enlargement), in the global frame: a shape's location is part of its TopoDS_Shape, so no placement is missed.
 */
export function boundingBox(shape: AnyShape): BBox {
  const k = oc();
  const box = new k.Bnd_Box();
  try {
    k.BRepBndLib.AddOptimal(shape.wrapped, box, false, false);
    if (box.IsVoid()) return { min: [0, 0, 0], max: [0, 0, 0], size: [0, 0, 0] };
    const min = r3([box.GetXMin(), box.GetYMin(), box.GetZMin()]);
    const max = r3([box.GetXMax(), box.GetYMax(), box.GetZMax()]);
    return { min, max, size: r3([max[0] - min[0], max[1] - min[1], max[2] - min[2]]) };
  } finally {
    box.delete();
  }
}

/** Validity already established for a shape object (shapes are immutable: features return new ones). */
const validity = new WeakMap<object, boolean>();

/** The kernel's validity checker (`BRepCheck_Analyzer`, geometric controls on), computed once per shape object. */
export function isValidShape(shape: AnyShape): boolean {
  const known = validity.get(shape);
  if (known !== undefined) return known;
  const analyzer = new (oc().BRepCheck_Analyzer)(shape.wrapped, true, false);
  try {
    const valid = analyzer.IsValid();
    validity.set(shape, valid);
    return valid;
  } finally {
    analyzer.delete();
  }
}

/** Volume of a 3D shape in mm³ (0 for faces, wires and empty compounds). */
export function volumeOf(shape: AnyShape): number {
  return replicad.isShape3D(shape) ? replicad.measureVolume(shape) : 0;
}

/** Counts distinct sub-shapes of a kind (replicad's iterators dedupe shared faces and edges). */
function countOf(shape: AnyShape, kind: 'solid' | 'face' | 'edge'): number {
  const subs = kind === 'solid' ? shape.solids : kind === 'face' ? shape.faces : shape.edges;
  const n = subs.length;
  for (const s of subs) s.delete();
  return n;
}

/** Measures a shape in the global frame: volume, area, tight bounding box, centre of mass, topology counts, validity. */
export function propertiesOf(shape: AnyShape): ShapeProperties {
  const is3d = replicad.isShape3D(shape);
  const vol = is3d ? replicad.measureShapeVolumeProperties(shape as Shape3D) : undefined;
  const area = is3d ? replicad.measureArea(shape as Shape3D) : 0;
  const com = vol ? vol.centerOfMass : [0, 0, 0];
  const volume = vol ? vol.volume : 0;
  vol?.delete();
  return {
    volume_mm3: round6(volume),
    surface_area_mm2: round6(area),
    bounding_box: boundingBox(shape),
    center_of_mass: r3(com),
    shape_type: shape.constructor.name,
    solid_count: countOf(shape, 'solid'),
    face_count: countOf(shape, 'face'),
    edge_count: countOf(shape, 'edge'),
    is_valid: isValidShape(shape),
  };
}
