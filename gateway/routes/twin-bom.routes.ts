import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { TwinViewActions as V } from '../../contracts/actions/twin-views.actions.ts';
import { BomListSchema } from '../../contracts/twin.ts';
import { ProjectFilterSchema } from '../../contracts/twin-views.ts';
import type { GatewayDeps } from '../deps.ts';

/** The BOM's optional page: `limit` 1..1000 and `offset` from 0 like every listing; absent = the whole BOM. */
const BomQuerySchema = ProjectFilterSchema.extend({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/**
 * `/v1/bom` (SPEC "BOM list"): `{components, total}` built by the twin actor from the current bom items' lines and
 * the current component selections, optionally of one project; `total` counts every component, the page or not.
 */
export function bomRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get('/', { schema: { querystring: BomQuerySchema, response: { 200: BomListSchema } } }, async (req) => {
      const { limit, offset = 0, ...filter } = req.query;
      const bom = await call(deps.caller, V.bom, filter);
      return limit === undefined && offset === 0
        ? bom
        : { ...bom, components: bom.components.slice(offset, offset + (limit ?? bom.components.length)) };
    });
  };
}
