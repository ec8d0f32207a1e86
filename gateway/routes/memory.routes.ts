import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { call } from '../../brokers/actions.ts';
import { MemoryActions as A } from '../../contracts/actions/memory.actions.ts';
import { ConsolidateParamsSchema, ConsolidateResultSchema } from '../../contracts/memory.ts';
import type { GatewayDeps } from '../deps.ts';

/**
 * `/v1/memory` (SPEC "Endpoints"): `POST /consolidate` takes the SPEC's consolidation trigger request and answers its
 * response plus the insights written. A body the SPEC refuses is 422 VALIDATION_FAILED; without a summarisation route
 * (or when the model fails or answers unusably) 503 SERVICE_UNAVAILABLE with `failure_class`, nothing written. The
 * memory actor does the work.
 */
export function memoryRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/consolidate',
      { schema: { body: ConsolidateParamsSchema, response: { 200: ConsolidateResultSchema } } },
      (req) => call(deps.caller, A.consolidate, req.body),
    );
  };
}
