import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { call } from '../../brokers/actions.ts';
import { ChatActions } from '../../contracts/actions/chat.actions.ts';
import { AssistantRequestSchema, AssistantResponseSchema } from '../../contracts/misc.ts';
import type { GatewayDeps } from '../deps.ts';
import { startedByOfRequest } from './run-starter.ts';

/**
 * `POST /api/v1/assistant/request`, also under `/v1` (SPEC: assistant routes appear under both): the chat actor's
 * assistant turns the request into design-change proposals; their decisions go through
 * `/api/v1/assistant/proposals/{id}/decide` (approvals-legacy.routes.ts) or the unified queue.
 */
export function assistantRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    for (const prefix of ['/api/v1', '/v1']) {
      r.post(
        `${prefix}/assistant/request`,
        { schema: { body: AssistantRequestSchema, response: { 200: AssistantResponseSchema } } },
        // The model call's ledger row names the bearer's principal (decision 0113); none without a header.
        async (req) => {
          const by = await startedByOfRequest(deps, req.headers.authorization);
          const principal = by && { subject: by.subject, client_id: by.client_id };
          return call(deps.caller, ChatActions.assistantRequest, { ...req.body, principal });
        },
      );
    }
  };
}
