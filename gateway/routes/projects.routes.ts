import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ProjectsActions as A } from '../../contracts/actions/projects.actions.ts';
import {
  ProjectCreateSchema,
  ProjectIdSchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  ProjectSchema,
  ProjectUpdateSchema,
} from '../../contracts/index.ts';
import type { GatewayDeps } from '../deps.ts';

const IdParams = z.object({ id: ProjectIdSchema });
const ProjectDeletedSchema = z.null().describe('project deleted; no content');

/**
 * `/v1/projects`: list, create, get, rename (PATCH) and delete (DELETE, 204). The spec leaves the rename and delete
 * methods open; README documents this choice. Every call goes through the broker to the projects actor.
 */
export function projectsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/', { schema: { querystring: ProjectListQuerySchema, response: { 200: ProjectListSchema } } }, (req) =>
      call(deps.caller, A.list, req.query),
    );

    r.post('/', { schema: { body: ProjectCreateSchema, response: { 201: ProjectSchema } } }, async (req, reply) => {
      const project = await call(deps.caller, A.create, req.body);
      return reply.code(201).header('location', `/v1/projects/${project.id}`).send(project);
    });

    r.get('/:id', { schema: { params: IdParams, response: { 200: ProjectSchema } } }, (req) =>
      call(deps.caller, A.get, { id: req.params.id }),
    );

    r.patch(
      '/:id',
      { schema: { params: IdParams, body: ProjectUpdateSchema, response: { 200: ProjectSchema } } },
      (req) => call(deps.caller, A.update, { id: req.params.id, patch: req.body }),
    );

    // 204 declared as `null`: the document then lists it with no content, as it is answered.
    r.delete('/:id', { schema: { params: IdParams, response: { 204: ProjectDeletedSchema } } }, async (req, reply) => {
      await call(deps.caller, A.remove, { id: req.params.id });
      return reply.code(204).send(null);
    });
  };
}
