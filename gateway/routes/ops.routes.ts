import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthRollupSchema } from '../../contracts/health.ts';
import type { GatewayDeps } from '../deps.ts';

/** `GET /health` (open; 200 when healthy or degraded) and `GET /metrics` (Prometheus text of this process). */
export function opsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get('/health', { schema: { response: { 200: HealthRollupSchema } } }, () => deps.health());
    r.get('/metrics', async (_req, reply) => {
      const text = await deps.registry.metrics();
      return reply.type(deps.registry.contentType).send(text);
    });
  };
}
