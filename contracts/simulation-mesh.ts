import { z } from 'zod';
import { BBoxSchema, Vec3Schema } from './simulation.ts';

/** One named B-rep face of a meshed part (SPEC rule 9 `surface_sets`): bounds, centroid, area, outward normal. */
export const SurfaceSetSchema = z.object({
  bbox_mm: BBoxSchema,
  centroid_mm: Vec3Schema,
  area_mm2: z.number().min(0),
  /** Area-weighted mean outward unit normal; null for a face that turns too much to have one (a full cylinder). */
  normal: Vec3Schema.nullable(),
  planar: z.boolean(),
  node_count: z.number().int().min(0),
});
export type SurfaceSet = z.infer<typeof SurfaceSetSchema>;

/** `POST /v1/simulation/named-faces` body: a STEP on the workspace or a twin node holding one. */
export const NamedFacesRequestSchema = z
  .object({
    file_path: z.string().min(1).optional().describe('workspace path of a STEP'),
    node_id: z.string().min(1).optional().describe('twin node whose stored file is a STEP'),
    element_size_mm: z.number().positive().optional(),
  })
  .refine((b) => Boolean(b.file_path) !== Boolean(b.node_id), { message: 'give exactly one of file_path and node_id' });
export type NamedFacesRequest = z.infer<typeof NamedFacesRequestSchema>;

/** The face naming `cadkernel.generate_mesh` uses (SPEC rule 9), without writing a mesh. */
export const NamedFacesResponseSchema = z.object({
  source: z.object({ file_path: z.string().optional(), node_id: z.string().optional() }),
  surface_sets: z.record(z.string(), SurfaceSetSchema),
  face_count: z.number().int().min(0),
  mesh_bbox_mm: BBoxSchema,
  coordinate_frame: z.literal('twin'),
  placement_baked: z.boolean(),
});
export type NamedFacesResponse = z.infer<typeof NamedFacesResponseSchema>;
