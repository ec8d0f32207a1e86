/** Parametric shape types (`create_parametric` shape_type, assembly part kind, session `create_primitive`). */
export const SHAPE_TYPES = ['box', 'beam', 'cylinder', 'sphere', 'cone', 'torus', 'tube', 'plate'] as const;

/** One of SHAPE_TYPES. */
export type ShapeType = (typeof SHAPE_TYPES)[number];
