import { z } from 'zod';
import { Vec3Schema } from './simulation.ts';

/** Primitive kinds of an assembly part (SPEC "Assembly part", kind). */
export const AssemblyPartKindSchema = z.enum(['box', 'cylinder', 'cone', 'sphere']);
export type AssemblyPartKind = z.infer<typeof AssemblyPartKindSchema>;

/** A hole of an assembly part; the spec does not show the Hole record's fields, so any object. */
export const HoleSchema = z.record(z.string(), z.unknown());
export type Hole = z.infer<typeof HoleSchema>;

/**
 * Assembly part (SPEC "Assembly part"): dimensions in mm; fillet or chamfer (> 0) rounds or bevels every edge before
 * holes and must be smaller than half the thinnest dimension (checked by the kernel); only one of the two may be given.
 */
export const AssemblyPartSchema = z
  .object({
    name: z.string().min(1),
    kind: AssemblyPartKindSchema,
    parameters: z.record(z.string(), z.number()),
    position: Vec3Schema.nullable().optional(),
    fillet: z.number().positive().nullable().optional(),
    chamfer: z.number().positive().nullable().optional(),
    holes: z.array(HoleSchema).optional(),
  })
  .refine((p) => p.fillet == null || p.chamfer == null, {
    message: 'give fillet or chamfer, not both',
    path: ['chamfer'],
  });
export type AssemblyPart = z.infer<typeof AssemblyPartSchema>;

/** Create-assembly request `{name, parts, project_id}` (SPEC "Create-assembly request"): at least one part. */
export const CreateAssemblyRequestSchema = z.object({
  name: z.string().min(1),
  parts: z.array(AssemblyPartSchema).min(1),
  project_id: z.string().nullable().optional(),
});
export type CreateAssemblyRequest = z.infer<typeof CreateAssemblyRequestSchema>;

/** Assembly response (SPEC "Assembly response"); hash and object key are null when nothing was stored. */
export const AssemblyResponseSchema = z.object({
  node_id: z.string(),
  model_url: z.string(),
  part_count: z.number().int().min(0),
  content_hash: z.string().nullable(),
  minio_object_key: z.string().nullable(),
});
export type AssemblyResponse = z.infer<typeof AssemblyResponseSchema>;

/** Assembly joint (SPEC "Assembly joint"): anchor default [0,0,0], axis default [0,0,1]; type values not listed. */
export const AssemblyJointSchema = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  base: z.string().min(1),
  follower: z.string().min(1),
  anchor: Vec3Schema.default([0, 0, 0]),
  axis: Vec3Schema.default([0, 0, 1]),
  limits: z.record(z.string(), z.number()).nullable().optional(),
});
export type AssemblyJoint = z.infer<typeof AssemblyJointSchema>;

/** Compile request (SPEC "Compile request"): description min 1; model, name, provider optional. */
export const CompileRequestSchema = z.object({
  description: z.string().min(1),
  model: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  provider: z.string().nullable().optional(),
});
export type CompileRequest = z.infer<typeof CompileRequestSchema>;

/** Compile response `{spec, buildable, errors}` (SPEC "compile response"); spec is null when nothing compiled. */
export const CompileResponseSchema = z.object({
  spec: z.record(z.string(), z.unknown()).nullable(),
  buildable: z.boolean(),
  errors: z.array(z.string()),
});
export type CompileResponse = z.infer<typeof CompileResponseSchema>;

/** Boolean operations (SPEC "Boolean cut request", operation). */
export const BooleanOperationSchema = z.enum(['subtract', 'union', 'intersect']);
export type BooleanOperation = z.infer<typeof BooleanOperationSchema>;

/** Boolean cut request (SPEC "Boolean cut request"): node ids min 1, operation default subtract. */
export const BooleanCutRequestSchema = z.object({
  target_node_id: z.string().min(1),
  cutter_node_id: z.string().min(1),
  operation: BooleanOperationSchema.default('subtract'),
  result_name: z.string().nullable().optional(),
});
export type BooleanCutRequest = z.infer<typeof BooleanCutRequestSchema>;

/** Boolean cut response `{node, operation, result_volume_mm3, result_area_mm2}` (SPEC); node is the new twin node. */
export const BooleanCutResponseSchema = z.object({
  node: z.record(z.string(), z.unknown()),
  operation: BooleanOperationSchema,
  result_volume_mm3: z.number().min(0),
  result_area_mm2: z.number().min(0),
});
export type BooleanCutResponse = z.infer<typeof BooleanCutResponseSchema>;

/** Conversion result of `POST /v1/convert` (SPEC "Conversion result"): hash is the SHA-256 of the source file. */
export const ConversionResultSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, { message: 'expected a SHA-256 hex digest' }),
  glb_url: z.string(),
  metadata: z.looseObject({
    parts: z.unknown().optional(),
    stats: z.record(z.string(), z.unknown()).optional(),
    materials: z.unknown().optional(),
  }),
  cached: z.boolean(),
});
export type ConversionResult = z.infer<typeof ConversionResultSchema>;

/** Upload form of `POST /v1/convert`: one STEP or IGES file, recognised by its extension (SPEC "Conversion result"). */
export const ConvertUploadFormSchema = z.object({
  file: z.file().refine((f) => /\.(step|stp|iges|igs)$/i.test(f.name), { message: 'expected a STEP or IGES file' }),
});
export type ConvertUploadForm = z.infer<typeof ConvertUploadFormSchema>;

/** Bring-up checklist request `{work_product_id, project_id}` (SPEC "Bring-up checklist"): work_product_id required. */
export const BringUpChecklistRequestSchema = z.object({
  work_product_id: z.string().min(1),
  project_id: z.string().nullable().optional(),
});
export type BringUpChecklistRequest = z.infer<typeof BringUpChecklistRequestSchema>;

/** One step of a bring-up checklist, one per joint (SPEC "Bring-up checklist", steps). */
export const BringUpStepSchema = z.object({
  step_number: z.number().int().min(1),
  joint_name: z.string(),
  joint_type: z.string(),
  base: z.string(),
  follower: z.string(),
  instruction: z.string(),
});
export type BringUpStep = z.infer<typeof BringUpStepSchema>;

/** Bring-up checklist response `{node_id, statement, steps}` (SPEC "Bring-up checklist"). */
export const BringUpChecklistResponseSchema = z.object({
  node_id: z.string(),
  statement: z.string(),
  steps: z.array(BringUpStepSchema),
});
export type BringUpChecklistResponse = z.infer<typeof BringUpChecklistResponseSchema>;
