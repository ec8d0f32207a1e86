/**
 * Plane geometry of the placer in KiCad's board frame: millimetres, x right, y down, a footprint's rotation in degrees
 * counter-clockwise on screen (KiCad's `SetOrientationDegrees`), so a point (x, y) of the footprint at rotation r lands
 * at origin + (x cos r + y sin r, -x sin r + y cos r). Pure.
 */

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export type Rotation = 0 | 90 | 180 | 270;
export const ROTATIONS: Rotation[] = [0, 90, 180, 270];

/** A footprint point at rotation `r` (exact for the quarter turns). */
export function rotate(x: number, y: number, r: Rotation): [number, number] {
  switch (r) {
    case 0:
      return [x, y];
    case 90:
      return [y, -x];
    case 180:
      return [-x, -y];
    case 270:
      return [-y, x];
  }
}

/** A footprint's box (around its origin) turned by `r` and moved to (x, y). */
export function placedBox(b: Box, x: number, y: number, r: Rotation): Box {
  const [ax, ay] = rotate(b.x1, b.y1, r);
  const [bx, by] = rotate(b.x2, b.y2, r);
  return { x1: x + Math.min(ax, bx), y1: y + Math.min(ay, by), x2: x + Math.max(ax, bx), y2: y + Math.max(ay, by) };
}

/** The area two boxes share after each is grown by `gap / 2` on every side (0 when they keep `gap` apart). */
export function overlapArea(a: Box, b: Box, gap: number): number {
  const h = gap / 2;
  const w = Math.min(a.x2 + h, b.x2 + h) - Math.max(a.x1 - h, b.x1 - h);
  const t = Math.min(a.y2 + h, b.y2 + h) - Math.max(a.y1 - h, b.y1 - h);
  return w > 0 && t > 0 ? w * t : 0;
}

/** The area of `b` that lies outside `inner` (0 when b is inside). */
export function outsideArea(b: Box, inner: Box): number {
  const area = (b.x2 - b.x1) * (b.y2 - b.y1);
  const w = Math.max(0, Math.min(b.x2, inner.x2) - Math.max(b.x1, inner.x1));
  const t = Math.max(0, Math.min(b.y2, inner.y2) - Math.max(b.y1, inner.y1));
  return area - w * t;
}

export const width = (b: Box) => b.x2 - b.x1;
export const height = (b: Box) => b.y2 - b.y1;

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every machine. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
