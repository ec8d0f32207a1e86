import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ComponentHealthSchema } from '../health.ts';
import {
  ProjectCreateSchema,
  ProjectIdSchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  ProjectSchema,
  ProjectUpdateSchema,
} from '../projects.ts';

/** Bus actions of the `projects` actor. */
export const ProjectsActions = {
  list: defineAction('projects.list', ProjectListQuerySchema, ProjectListSchema),
  get: defineAction('projects.get', z.object({ id: ProjectIdSchema }), ProjectSchema),
  create: defineAction('projects.create', ProjectCreateSchema, ProjectSchema),
  update: defineAction('projects.update', z.object({ id: ProjectIdSchema, patch: ProjectUpdateSchema }), ProjectSchema),
  remove: defineAction(
    'projects.remove',
    z.object({ id: ProjectIdSchema }),
    z.object({ id: z.string(), deleted: z.literal(true) }),
  ),
  health: defineAction('projects.health', z.object({}), ComponentHealthSchema),
} as const;
