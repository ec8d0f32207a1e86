import { z } from 'zod';

/** A point or vector `[x, y, z]` in mm (SPEC "Result field payload", "Assembly part" position). */
export const Vec3Schema = z.tuple([z.number(), z.number(), z.number()]);
export type Vec3 = z.infer<typeof Vec3Schema>;

/** Axis-aligned box `{min: [3 numbers], max: [3 numbers]}` (SPEC "Result field payload", bbox). */
export const BBoxSchema = z.object({ min: Vec3Schema, max: Vec3Schema });
export type BBox = z.infer<typeof BBoxSchema>;

/** Format tag of the result field payload (SPEC "Result field payload": `service.sim_field`). */
export const SIM_FIELD_FORMAT = 'service.sim_field';

/** Media type under which the field payload is served (SPEC "Solver field object", field route). */
export const SIM_FIELD_MEDIA_TYPE = 'application/vnd.service.sim-field+json';

/** Units of a field payload, fixed by the spec `{length: mm, stress: MPa, displacement: mm, temperature: C}`. */
export const SimFieldUnitsSchema = z.object({
  length: z.literal('mm'),
  stress: z.literal('MPa'),
  displacement: z.literal('mm'),
  temperature: z.literal('C'),
});
export type SimFieldUnits = z.infer<typeof SimFieldUnitsSchema>;

/** Quantity names a field payload may carry (SPEC "Result field payload", fields). */
export const SimFieldQuantitySchema = z.enum(['von_mises', 'displacement_magnitude', 'temperature']);
export type SimFieldQuantity = z.infer<typeof SimFieldQuantitySchema>;

/** Where a field peaks `{position, value}`, from the full nodal field before any simplification (SPEC rule 10). */
export const SimFieldPeakSchema = z.object({ position: Vec3Schema, value: z.number() });
export type SimFieldPeak = z.infer<typeof SimFieldPeakSchema>;

/** One per-vertex scalar field `{label, unit, values, min, max, peak}` (SPEC "Result field payload", fields). */
export const SimFieldScalarSchema = z.object({
  label: z.string(),
  unit: z.string(),
  values: z.array(z.number()),
  min: z.number(),
  max: z.number(),
  peak: SimFieldPeakSchema,
});
export type SimFieldScalar = z.infer<typeof SimFieldScalarSchema>;

/** Fixture marker `{kind: 'fixture', label, position, bbox}` (SPEC "Result field payload", markers). */
export const FixtureMarkerSchema = z.object({
  kind: z.literal('fixture'),
  label: z.string(),
  position: Vec3Schema,
  bbox: BBoxSchema,
});
export type FixtureMarker = z.infer<typeof FixtureMarkerSchema>;

/** Load marker `{kind: 'load', label, position, vector, unit}` (SPEC "Result field payload", markers). */
export const LoadMarkerSchema = z.object({
  kind: z.literal('load'),
  label: z.string(),
  position: Vec3Schema,
  vector: Vec3Schema,
  unit: z.string(),
});
export type LoadMarker = z.infer<typeof LoadMarkerSchema>;

/** A marker of the payload, discriminated on kind (SPEC "Result field payload", markers). */
export const SimFieldMarkerSchema = z.discriminatedUnion('kind', [FixtureMarkerSchema, LoadMarkerSchema]);
export type SimFieldMarker = z.infer<typeof SimFieldMarkerSchema>;

/** Decimation report `{applied, source_triangle_count, cell_size_mm}` (SPEC "Result field payload"). */
export const SimFieldDecimationSchema = z.object({
  applied: z.boolean(),
  source_triangle_count: z.number().int().min(0),
  cell_size_mm: z.number().positive().nullable(),
});
export type SimFieldDecimation = z.infer<typeof SimFieldDecimationSchema>;

/**
 * Result field payload, `service.sim_field` version 1 (SPEC "Result field payload"; gzip-compressed JSON on the wire).
 * Invariants checked: flat xyz lists, three indices per triangle within the vertex count, displacement empty (thermal)
 * or one xyz per vertex, and one value per vertex in every field.
 */
export const SimFieldPayloadSchema = z
  .object({
    format: z.literal(SIM_FIELD_FORMAT),
    version: z.literal(1),
    analysis_type: z.string().min(1),
    units: SimFieldUnitsSchema,
    positions: z.array(z.number()),
    indices: z.array(z.number().int().min(0)),
    displacement: z.array(z.number()),
    fields: z.partialRecord(SimFieldQuantitySchema, SimFieldScalarSchema),
    markers: z.array(SimFieldMarkerSchema),
    bbox: BBoxSchema,
    decimation: SimFieldDecimationSchema,
  })
  .superRefine((p, ctx) => {
    const vertices = p.positions.length / 3;
    if (!Number.isInteger(vertices))
      ctx.addIssue({ code: 'custom', path: ['positions'], message: 'not x,y,z per vertex' });
    if (p.indices.length % 3 !== 0)
      ctx.addIssue({ code: 'custom', path: ['indices'], message: 'not three per triangle' });
    if (p.indices.some((i) => i >= vertices)) {
      ctx.addIssue({ code: 'custom', path: ['indices'], message: 'index beyond the vertex count' });
    }
    if (p.displacement.length !== 0 && p.displacement.length !== p.positions.length) {
      ctx.addIssue({ code: 'custom', path: ['displacement'], message: 'not dx,dy,dz per vertex' });
    }
    for (const [name, field] of Object.entries(p.fields)) {
      if (field && field.values.length !== vertices) {
        ctx.addIssue({ code: 'custom', path: ['fields', name, 'values'], message: 'not one value per vertex' });
      }
    }
  });
export type SimFieldPayload = z.infer<typeof SimFieldPayloadSchema>;

/** Range `{min, max}` of one quantity (SPEC solver field object `ranges`, node metadata `field_ranges`). */
export const FieldRangeSchema = z.object({ min: z.number(), max: z.number() });
export type FieldRange = z.infer<typeof FieldRangeSchema>;

/** Solver field object when the payload was built (SPEC "Solver field object"): workspace file plus inline base64. */
export const SolverFieldBuiltSchema = z.object({
  file: z.string().min(1),
  base64: z.string().min(1),
  format: z.literal(SIM_FIELD_FORMAT),
  media_type: z.literal(SIM_FIELD_MEDIA_TYPE),
  encoding: z.literal('gzip'),
  quantities: z.array(SimFieldQuantitySchema),
  ranges: z.partialRecord(SimFieldQuantitySchema, FieldRangeSchema),
  vertex_count: z.number().int().min(0),
  triangle_count: z.number().int().min(0),
  decimated: z.boolean(),
  source_triangle_count: z.number().int().min(0),
});
export type SolverFieldBuilt = z.infer<typeof SolverFieldBuiltSchema>;

/** Solver field object when the payload could not be built: only `error` (SPEC; the numeric summary stays valid). */
export const SolverFieldFailedSchema = z.object({
  format: z.literal(SIM_FIELD_FORMAT),
  media_type: z.literal(SIM_FIELD_MEDIA_TYPE),
  encoding: z.literal('gzip'),
  error: z.string().min(1),
});
export type SolverFieldFailed = z.infer<typeof SolverFieldFailedSchema>;

/** Solver field object in every successful static, modal and thermal result: built, or failed with error (SPEC). */
export const SolverFieldObjectSchema = z.union([SolverFieldBuiltSchema, SolverFieldFailedSchema]);
export type SolverFieldObject = z.infer<typeof SolverFieldObjectSchema>;

/** Mesh-convergence point `{element_size_mm, max_von_mises_mpa, element_count?}` (SPEC "Mesh convergence record"). */
export const MeshConvergencePointSchema = z.object({
  element_size_mm: z.number().positive(),
  max_von_mises_mpa: z.number(),
  element_count: z.number().int().positive().optional(),
});
export type MeshConvergencePoint = z.infer<typeof MeshConvergencePointSchema>;

/** Change between two consecutive mesh sizes (SPEC "Mesh convergence record", changes). */
export const MeshConvergenceChangeSchema = z.object({
  from_element_size_mm: z.number().positive(),
  to_element_size_mm: z.number().positive(),
  percent_change: z.number(),
});
export type MeshConvergenceChange = z.infer<typeof MeshConvergenceChangeSchema>;

/** Mesh convergence record `{points, changes, converged, recommendation}` (SPEC "Mesh convergence record"). */
export const MeshConvergenceRecordSchema = z.object({
  points: z.array(MeshConvergencePointSchema),
  changes: z.array(MeshConvergenceChangeSchema),
  converged: z.boolean(),
  recommendation: z.string(),
});
export type MeshConvergenceRecord = z.infer<typeof MeshConvergenceRecordSchema>;

/** Arguments of `solver.check_mesh_convergence` (SPEC tool catalogue); a change needs at least two points. */
export const CheckMeshConvergenceInputSchema = z.object({ points: z.array(MeshConvergencePointSchema).min(2) });
export type CheckMeshConvergenceInput = z.infer<typeof CheckMeshConvergenceInputSchema>;
