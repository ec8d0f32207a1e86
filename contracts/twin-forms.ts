import { z } from 'zod';
import { ConstraintCreateRequestSchema, ConstraintCreateResponseSchema, ItemKeySchema, ItemRefSchema } from './twin.ts';

/** Constraint operators a constraint set holds (the same as `twin.record_constraint_set`). */
export const ConstraintOperatorSchema = z.enum(['<=', '<', '>=', '>', '==', '!=']);

/** Constraint severities a constraint set holds (the same as `twin.record_constraint_set`). */
export const ConstraintSeveritySchema = z.enum(['error', 'warning', 'info']);

/**
 * `POST /v1/twin/constraints` body: the spec's constraint create request, its operator and severity narrowed to the
 * values the constraint sets hold (anything else is 422).
 */
export const ConstraintCreateBodySchema = ConstraintCreateRequestSchema.extend({
  operator: ConstraintOperatorSchema.default('<='),
  severity: ConstraintSeveritySchema.default('error'),
});
export type ConstraintCreateBody = z.infer<typeof ConstraintCreateBodySchema>;

/** Constraint create answer: the spec's `{constraintId, setWorkProductId}` plus the item write result of the set. */
export const ConstraintCreateResultSchema = ConstraintCreateResponseSchema.extend({
  item_key: ItemKeySchema,
  revision: z.number().int().min(1),
  item_ref: ItemRefSchema,
});
export type ConstraintCreateResult = z.infer<typeof ConstraintCreateResultSchema>;

/** Text fields of the import form (SPEC "Import form"); the file part is checked apart (absent is 422). */
export const ImportFieldsSchema = z.object({
  description: z.string().max(10_000).default(''),
  domain: z.string().max(200).optional(),
  project_id: z.string().min(1).max(200).optional(),
  wp_type: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, { message: 'expected a work-product type such as cad_model or document' })
    .max(100)
    .optional(),
});
export type ImportFields = z.infer<typeof ImportFieldsSchema>;

/** `POST /v1/twin/import` answer (201): the node made, its item write result when it is a definition, the stored file. */
export const ImportResultSchema = z.object({
  node_id: z.string(),
  node_type: z.string(),
  name: z.string(),
  item_key: z.string().nullable(),
  revision: z.number().int().nullable(),
  item_ref: z.string().nullable(),
  object_key: z.string(),
  content_hash: z.string(),
  size_bytes: z.number().int().min(0),
  media_type: z.string(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;
