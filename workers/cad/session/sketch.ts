import * as replicad from 'replicad';
import type { Drawing, Shape3D } from 'replicad';
import type { Profile } from '../../../contracts/cad-session.ts';
import { KernelArgumentError } from '../errors.ts';
import type { SketchData } from './doc.ts';

/** What a placed sketch can do (replicad's Sketch, Sketches and CompoundSketch share these). */
export interface PlacedSketch {
  extrude(distance: number): Shape3D;
  revolve(axis?: replicad.Point, config?: { origin?: replicad.Point; angle?: number }): Shape3D;
}

/** A closed 2D drawing of a profile (`path` profiles are open and only serve as sweep paths). */
export function drawProfile(p: Profile): Drawing {
  switch (p.type) {
    case 'rectangle': {
      const d = replicad.drawRoundedRectangle(p.width, p.height, p.corner_radius);
      return p.center ? d.translate(p.center[0], p.center[1]) : d;
    }
    case 'circle':
      return p.center
        ? replicad.drawCircle(p.radius).translate(p.center[0], p.center[1])
        : replicad.drawCircle(p.radius);
    case 'regular_polygon': {
      const d = replicad.drawPolysides(p.radius, p.sides);
      return p.center ? d.translate(p.center[0], p.center[1]) : d;
    }
    case 'polygon': {
      let pen = replicad.draw(p.points[0]);
      for (const pt of p.points.slice(1)) pen = pen.lineTo(pt);
      return pen.close();
    }
    case 'path':
      throw new KernelArgumentError(
        'a path profile is open: use it as the path of sweep_sketch, not as a closed profile',
      );
  }
}

/** The open drawing of a `path` profile (a polyline). */
export function drawPath(p: Profile): Drawing {
  if (p.type !== 'path')
    throw new KernelArgumentError('the sweep path sketch must have a path profile (an open polyline)');
  let pen = replicad.draw(p.points[0]);
  for (const pt of p.points.slice(1)) pen = pen.lineTo(pt);
  return pen.done();
}

/** A fresh replicad sketch of the data: the profile minus its holes, on its plane at its offset. */
export function placeSketch(s: SketchData): PlacedSketch {
  let d = drawProfile(s.profile);
  for (const h of s.holes) d = d.cut(drawProfile(h));
  return d.sketchOnPlane(s.plane, s.offset) as unknown as PlacedSketch;
}

/** A single-wire sketch for lofts (holes are not allowed there). */
export function placeSingleSketch(s: SketchData, id: string): replicad.Sketch {
  if (s.holes.length) throw new KernelArgumentError(`sketch ${id} has holes; a loft needs single-profile sketches`);
  return drawProfile(s.profile).sketchOnPlane(s.plane, s.offset) as replicad.Sketch;
}

/** The unit normal of a sketch plane (pads go along it; negative lengths go the other way). */
export function planeNormal(plane: SketchData['plane']): [number, number, number] {
  return plane === 'XY' ? [0, 0, 1] : plane === 'XZ' ? [0, -1, 0] : [1, 0, 0];
}

/** Sweeps a closed profile along the path of a path sketch (profile planes follow the path's tangent). */
export function sweep(path: SketchData, profile: Profile): Shape3D {
  const spine = drawPath(path.profile).sketchOnPlane(path.plane, path.offset) as replicad.Sketch;
  const prof = drawProfile(profile);
  return spine.sweepSketch((plane) => prof.sketchOnPlane(plane) as replicad.Sketch);
}
