import { z } from 'zod';

/**
 * Project record. The spec names the resource but not its fields beyond `id`/`name`;
 * the choice here is documented in README ("Projects").
 */
export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectIdSchema = z.string().min(1).max(200);

/** POST /v1/projects body and `project.create` arguments. */
export const ProjectCreateSchema = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).default(''),
});
export type ProjectCreate = z.infer<typeof ProjectCreateSchema>;

/** PATCH /v1/projects/{id} body (rename; description optional). At least one field. */
export const ProjectUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).optional(),
  })
  .refine((v) => v.name !== undefined || v.description !== undefined, { message: 'give name or description' });
export type ProjectUpdate = z.infer<typeof ProjectUpdateSchema>;

/** GET /v1/projects answer. */
export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema), total: z.number().int() });
export type ProjectList = z.infer<typeof ProjectListSchema>;

export const ProjectListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ProjectListQuery = z.infer<typeof ProjectListQuerySchema>;
