import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { SessionsActions as A } from '../../contracts/actions/sessions.actions.ts';
import {
  SessionIdSchema,
  SessionListQuerySchema,
  SessionListSchema,
  SessionWithEventsSchema,
} from '../../contracts/index.ts';
import type { GatewayDeps } from '../deps.ts';

const IdParams = z.object({ id: SessionIdSchema });

/**
 * `/v1/sessions` (SPEC "Endpoints": captured agent sessions): the list, newest first, optionally of one project, and
 * one session with its events. An unknown id is 404 with the error body. Every call goes to the sessions actor.
 */
export function sessionsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/', { schema: { querystring: SessionListQuerySchema, response: { 200: SessionListSchema } } }, (req) =>
      call(deps.caller, A.list, req.query),
    );

    r.get('/:id', { schema: { params: IdParams, response: { 200: SessionWithEventsSchema } } }, (req) =>
      call(deps.caller, A.get, { id: req.params.id }),
    );
  };
}
