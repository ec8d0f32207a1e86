import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { refusalsAsToolErrors } from '../kit/actor-call.ts';
import { ProjectsActions as P } from '../../../contracts/actions/projects.actions.ts';
import { ProjectCreateSchema, ProjectIdSchema, ProjectListQuerySchema } from '../../../contracts/projects.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool, ToolError } from '../kit/tool.ts';

/** A not-found or validation refusal from the projects actor is a tool error naming the project (the tool ran and refused). */
const orToolError = refusalsAsToolErrors;

const tools = [
  defineTool({
    name: 'create',
    description: 'Create a project (name, optional description). Returns the project record with its id.',
    input: ProjectCreateSchema,
    handler: (args, tc) => orToolError(call(tc.ctx, P.create, args)),
  }),
  defineTool({
    name: 'get',
    description: 'Read one project by id.',
    input: z.object({ project_id: ProjectIdSchema }),
    handler: ({ project_id }, tc) => orToolError(call(tc.ctx, P.get, { id: project_id })),
  }),
  defineTool({
    name: 'list',
    description: 'List projects, newest first (limit, offset). Returns {projects, total}.',
    input: ProjectListQuerySchema,
    handler: (args, tc) => orToolError(call(tc.ctx, P.list, args)),
  }),
  defineTool({
    name: 'update',
    description: 'Rename a project or change its description.',
    input: z.object({
      project_id: ProjectIdSchema,
      name: z.string().trim().min(1).max(200).optional(),
      description: z.string().max(10_000).optional(),
    }),
    handler: ({ project_id, ...patch }, tc) => {
      if (patch.name === undefined && patch.description === undefined)
        throw new ToolError('give name or description to change');
      return orToolError(call(tc.ctx, P.update, { id: project_id, patch }));
    },
  }),
  defineTool({
    name: 'delete',
    description: 'Delete a project by id. Deleting a project that is already gone is an error naming it.',
    input: z.object({ project_id: ProjectIdSchema }),
    handler: ({ project_id }, tc) => orToolError(call(tc.ctx, P.remove, { id: project_id })),
  }),
];

/** The `project` adapter: the five project tools over the projects actor. */
export const createProjectAdapter = createAdapterService({
  id: 'project',
  version: '0.1.0',
  capability: 'project',
  tools,
});
