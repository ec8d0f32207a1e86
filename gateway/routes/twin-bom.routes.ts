import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { call } from '../../brokers/actions.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { BomListSchema } from '../../contracts/twin.ts';
import { ProjectFilterSchema } from '../../contracts/twin-views.ts';
import type { GatewayDeps } from '../deps.ts';

/**
 * `/v1/bom` (SPEC "BOM list"): `{components, total}` built by the twin actor from the current bom items' lines and
 * the current component selections, optionally of one project.
 */
export function bomRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get('/', { schema: { querystring: ProjectFilterSchema, response: { 200: BomListSchema } } }, (req) => call(deps.caller, V.bom, req.query));
  };
}
