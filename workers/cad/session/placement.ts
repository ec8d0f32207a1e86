/**
 * Rigid placements of session objects as 3x4 matrices (rotation R, translation t; mm and degrees at the edges).
 * Pure math: the kernel moves the geometry, this records where the object should be so transform_object can verify it.
 */
export type Vec3 = [number, number, number];

/** A placement: row-major rotation and a translation. */
export interface Placement {
  r: [Vec3, Vec3, Vec3];
  t: Vec3;
}

/** The identity placement (an object where it was built). */
export const IDENTITY: Placement = {
  r: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  t: [0, 0, 0],
};

const norm = (v: Vec3): Vec3 => {
  const l = Math.hypot(...v);
  if (!(l > 0)) throw new Error('an axis must not be the zero vector');
  return [v[0] / l, v[1] / l, v[2] / l];
};

/** Rotation matrix of `deg` degrees about the unit axis (Rodrigues). */
export function rotation(axis: Vec3, deg: number): [Vec3, Vec3, Vec3] {
  const [x, y, z] = norm(axis);
  const a = (deg * Math.PI) / 180;
  const [c, s, C] = [Math.cos(a), Math.sin(a), 1 - Math.cos(a)];
  return [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
}

/** Applies a placement to a point. */
export function apply(p: Placement, v: Vec3): Vec3 {
  return [0, 1, 2].map((i) => p.r[i][0] * v[0] + p.r[i][1] * v[1] + p.r[i][2] * v[2] + p.t[i]) as Vec3;
}

/** `second ∘ first`: first applied, then second. */
export function compose(second: Placement, first: Placement): Placement {
  const r = [0, 1, 2].map((i) =>
    [0, 1, 2].map(
      (j) => second.r[i][0] * first.r[0][j] + second.r[i][1] * first.r[1][j] + second.r[i][2] * first.r[2][j],
    ),
  ) as [Vec3, Vec3, Vec3];
  return { r, t: apply(second, first.t) };
}

/** A rotation about an axis through `center`, as a placement. */
export function rotationAbout(axis: Vec3, deg: number, center: Vec3): Placement {
  const r = rotation(axis, deg);
  const rc = apply({ r, t: [0, 0, 0] }, center);
  return { r, t: [center[0] - rc[0], center[1] - rc[1], center[2] - rc[2]] };
}

/** A pure translation. */
export const translation = (t: Vec3): Placement => ({ r: IDENTITY.r, t });

const r6 = (v: number) => {
  const x = Math.round(v * 1e6) / 1e6;
  return Object.is(x, -0) ? 0 : x;
};

/** A placement as the spec reports it: position (mm) and rotation as axis and angle_deg. */
export function describePlacement(p: Placement): { position: Vec3; rotation: { axis: Vec3; angle_deg: number } } {
  const { r } = p;
  const cos = Math.min(1, Math.max(-1, (r[0][0] + r[1][1] + r[2][2] - 1) / 2));
  const angle = Math.acos(cos);
  let axis: Vec3 = [0, 0, 1];
  if (angle > 1e-9 && Math.PI - angle > 1e-6) {
    axis = norm([r[2][1] - r[1][2], r[0][2] - r[2][0], r[1][0] - r[0][1]]);
  } else if (Math.PI - angle <= 1e-6) {
    // 180°: the axis is the column of R + I with the largest norm.
    const cols = [0, 1, 2].map((j) => [0, 1, 2].map((i) => r[i][j] + (i === j ? 1 : 0)) as Vec3);
    axis = norm(cols.reduce((a, b) => (Math.hypot(...b) > Math.hypot(...a) ? b : a)));
  }
  return {
    position: p.t.map(r6) as Vec3,
    rotation: { axis: axis.map(r6) as Vec3, angle_deg: r6((angle * 180) / Math.PI) },
  };
}
