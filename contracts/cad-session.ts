import { z } from 'zod';
import { AssemblyJointSchema, AssemblyPartSchema, BooleanOperationSchema } from './cad.ts';

/**
 * Operations of a CAD session (the cadkernel session tools, TOOLS.md). A session's feature history is the ordered
 * list of its mutating operations `{op, args}` as validated here; replaying the list rebuilds the session exactly.
 */
const Id = z.string().min(1).max(200);
const V3 = z.tuple([z.number(), z.number(), z.number()]);
const Plane = z.enum(['XY', 'XZ', 'YZ']).default('XY');
const EdgeSelector = z.enum(['all', 'top', 'bottom', 'vertical', 'horizontal']).default('all');
const FaceSelector = z.enum(['top', 'bottom', 'front', 'back', 'left', 'right']);

/** A 2D profile of a sketch (mm, in the sketch plane). */
export const ProfileSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('rectangle'),
    width: z.number().positive(),
    height: z.number().positive(),
    center: z.tuple([z.number(), z.number()]).optional(),
    corner_radius: z.number().positive().optional(),
  }),
  z.object({
    type: z.literal('circle'),
    radius: z.number().positive(),
    center: z.tuple([z.number(), z.number()]).optional(),
  }),
  z.object({ type: z.literal('polygon'), points: z.array(z.tuple([z.number(), z.number()])).min(3) }),
  z.object({
    type: z.literal('regular_polygon'),
    radius: z.number().positive(),
    sides: z.number().int().min(3).max(100),
    center: z.tuple([z.number(), z.number()]).optional(),
  }),
  z.object({ type: z.literal('path'), points: z.array(z.tuple([z.number(), z.number()])).min(2) }),
]);
/** A sketch profile. */
export type Profile = z.infer<typeof ProfileSchema>;

/** Argument schemas of the mutating session operations (recorded in the history). */
export const SessionOpArgs = {
  create_primitive: z.object({
    shape_type: z.string().min(1),
    parameters: z.record(z.string(), z.number()).default({}),
    name: z.string().optional(),
  }),
  create_body: z.object({ name: z.string().optional() }),
  create_sketch: z.object({
    plane: Plane,
    offset: z.number().default(0),
    profile: ProfileSchema,
    holes: z.array(ProfileSchema).default([]),
    name: z.string().optional(),
  }),
  pad_sketch: z.object({
    sketch_id: Id,
    length: z.number().refine((v) => v !== 0, 'length must not be 0'),
    body_id: Id.optional(),
    name: z.string().optional(),
  }),
  pocket_sketch: z.object({
    sketch_id: Id,
    target_id: Id,
    depth: z.number().positive().optional(),
    through_all: z.boolean().default(false),
    reversed: z.boolean().default(false),
  }),
  revolve_sketch: z.object({
    sketch_id: Id,
    angle_deg: z.number().gt(0).max(360).default(360),
    axis_origin: V3.default([0, 0, 0]),
    axis_direction: V3.default([0, 0, 1]),
    body_id: Id.optional(),
    name: z.string().optional(),
  }),
  loft_sketches: z.object({
    sketch_ids: z.array(Id).min(2),
    ruled: z.boolean().default(false),
    body_id: Id.optional(),
    name: z.string().optional(),
  }),
  sweep_sketch: z.object({
    path_sketch_id: Id,
    profile: ProfileSchema,
    body_id: Id.optional(),
    name: z.string().optional(),
  }),
  fillet_edges: z.object({ object_id: Id, radius: z.number().positive(), edges: EdgeSelector }),
  chamfer_edges: z.object({ object_id: Id, distance: z.number().positive(), edges: EdgeSelector }),
  shell_solid: z.object({
    object_id: Id,
    thickness: z.number().positive(),
    open_faces: z.array(FaceSelector).min(1).default(['top']),
  }),
  linear_pattern: z.object({
    object_id: Id,
    direction: V3,
    count: z.number().int().min(2).max(200),
    spacing: z.number().positive(),
  }),
  polar_pattern: z.object({
    object_id: Id,
    count: z.number().int().min(2).max(360),
    angle_deg: z.number().gt(0).max(360).default(360),
    axis_origin: V3.default([0, 0, 0]),
    axis_direction: V3.default([0, 0, 1]),
  }),
  mirror_feature: z.object({
    object_id: Id,
    plane: Plane,
    origin: V3.default([0, 0, 0]),
    keep_original: z.boolean().default(true),
  }),
  boolean: z.object({
    target_id: Id,
    tool_id: Id,
    operation: BooleanOperationSchema.default('union'),
    keep_tool: z.boolean().default(false),
  }),
  transform_object: z.object({
    object_id: Id,
    translate: V3.optional(),
    rotate: z.object({ axis: V3.default([0, 0, 1]), angle_deg: z.number(), center: V3.optional() }).optional(),
    position: V3.optional(),
  }),
  execute_code: z.object({
    code: z.string().min(1).max(200_000),
    params: z.record(z.string(), z.unknown()).optional(),
    cpu_seconds: z.number().positive().max(3600).optional(),
    name: z.string().optional(),
  }),
  import_step: z.object({
    blob_sha256: z.string().regex(/^[0-9a-f]{64}$/),
    file_name: z.string(),
    name: z.string().optional(),
  }),
  create_assembly: z.object({
    name: z.string().min(1),
    part_ids: z.array(Id).default([]),
    parts: z.array(AssemblyPartSchema).default([]),
  }),
  add_assembly_joint: AssemblyJointSchema.extend({ assembly_id: Id }),
} as const;

/** Names of the mutating operations. */
export type SessionOpName = keyof typeof SessionOpArgs;
/** Every recorded operation name, in table order. */
export const SESSION_OPS = Object.keys(SessionOpArgs) as SessionOpName[];

/** Read-only session queries (never recorded). */
export const SessionQueryArgs = {
  describe_session: z.object({}),
  describe_model: z.object({}),
  measure: z.object({ object_id: Id.optional(), other_id: Id.optional() }),
  list_joints: z.object({ assembly_id: Id.optional() }),
} as const;
/** Names of the read-only queries. */
export type SessionQueryName = keyof typeof SessionQueryArgs;

/** Colour input of export_model: [r,g,b] in 0-1 or 0-255. */
export const ColorArgSchema = z.tuple([
  z.number().min(0).max(255),
  z.number().min(0).max(255),
  z.number().min(0).max(255),
]);

/** export_model arguments (SPEC Twin and CAD rule 7). */
export const ExportModelArgs = z.object({
  obj_id: Id.optional().describe('a solid or assembly to export; default: every solid of the session'),
  material: z.string().optional(),
  color: ColorArgSchema.optional(),
  part_materials: z.record(z.string(), z.string()).optional(),
});
/** Validated export_model arguments. */
export type ExportModelInput = z.infer<typeof ExportModelArgs>;

/** One recorded feature: its sequence number in the session and the validated operation. */
export const SessionFeatureSchema = z.object({
  seq: z.number().int().min(1),
  op: z.enum(SESSION_OPS as [SessionOpName, ...SessionOpName[]]),
  args: z.record(z.string(), z.unknown()),
});
/** A recorded feature. */
export type SessionFeature = z.infer<typeof SessionFeatureSchema>;
