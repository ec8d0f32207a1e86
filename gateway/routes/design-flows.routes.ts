import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { RunFlowActions as F } from '../../contracts/actions/design-flows.actions.ts';
import { FlowsActions } from '../../contracts/actions/flows.actions.ts';
import { CapabilityResultSchema } from '../../contracts/design-flows.ts';
import { CompiledIntentSchema, CompileIntentRequestSchema } from '../../contracts/intent.ts';
import type { GatewayDeps } from '../deps.ts';

const ProfileQuery = z.object({ profile: z.string().min(1).max(100).optional() });

/**
 * `/v1/design-flows` (SPEC "Projects, runs, flows"): the intent compiler (the `flows` actor) and capability reports of
 * a built-in flow or a stored frozen version (the runs actor, over the tools the registry lists now).
 */
export function designFlowsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/intent',
      { schema: { body: CompileIntentRequestSchema, response: { 200: CompiledIntentSchema } } },
      (req) => call(deps.caller, FlowsActions.compileIntent, req.body),
    );

    r.get(
      '/versions/:id/capabilities',
      {
        schema: {
          params: z.object({ id: z.string().min(1).max(300) }),
          querystring: ProfileQuery,
          response: { 200: CapabilityResultSchema },
        },
      },
      (req) => call(deps.caller, F.capabilities, { version_id: req.params.id, profile: req.query.profile }),
    );

    r.get(
      '/:flow/capabilities',
      {
        schema: {
          params: z.object({ flow: z.string().min(1).max(100) }),
          querystring: ProfileQuery,
          response: { 200: CapabilityResultSchema },
        },
      },
      (req) => call(deps.caller, F.capabilities, { flow: req.params.flow, profile: req.query.profile }),
    );
  };
}
