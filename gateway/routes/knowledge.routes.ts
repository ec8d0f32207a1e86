import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { KnowledgeActions as A } from '../../contracts/actions/knowledge.actions.ts';
import {
  KnowledgeSourceListQuerySchema,
  KnowledgeSourceListSchema,
  KnowledgeSourceWithTextSchema,
} from '../../contracts/index.ts';
import type { GatewayDeps } from '../deps.ts';

const IdParams = z.object({ id: z.string().min(1).max(200) });

/**
 * `/v1/knowledge` (SPEC "Endpoints": ingested sources): `GET /sources[?project_id=]`, newest first with chunk counts,
 * and `GET /sources/{id}` with the full text re-assembled. An unknown id is 404. Every call goes to the knowledge actor.
 */
export function knowledgeRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/sources',
      { schema: { querystring: KnowledgeSourceListQuerySchema, response: { 200: KnowledgeSourceListSchema } } },
      (req) => call(deps.caller, A.listSources, req.query),
    );

    r.get('/sources/:id', { schema: { params: IdParams, response: { 200: KnowledgeSourceWithTextSchema } } }, (req) =>
      call(deps.caller, A.getSource, { id: req.params.id }),
    );
  };
}
