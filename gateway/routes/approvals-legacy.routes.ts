import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ActorError } from '../../brokers/errors.ts';
import {
  ApprovalItemSchema,
  DesignLoopApprovalBodySchema,
  ProposalDecisionBodySchema,
} from '../../contracts/approvals.ts';
import { decideViaQueue, logIgnoredIdentity } from '../approvals/decide.ts';
import type { GatewayDeps } from '../deps.ts';

const IdParams = z.object({ id: z.string().min(1).max(300) });
const IdemHeaders = z.looseObject({ 'idempotency-key': z.string().min(1).max(200).optional() });
const native = (id: string, prefix: string) => (id.startsWith(`${prefix}:`) ? id.slice(prefix.length + 1) : id);

/**
 * Older per-kind decision routes (SPEC "Approvals"): the design-loop approval `{approvedBy}` and the assistant proposal
 * decision `{change_id, decision, reason, reviewer}` (at `/api/v1/assistant/...` and `/v1/assistant/...`). They keep
 * their body rules, go through the same decision code as the unified route (so its 404, 409, 422, 403 rules hold),
 * record surface `unknown`, and answer the decided approval item. `approvedBy` and `reviewer` are required by the body
 * but ignored: the approver is the authenticated principal (logged as `approval_body_identity_ignored`).
 */
export function approvalsLegacyRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/v1/design-loop/:id/approve',
      {
        schema: {
          params: IdParams,
          headers: IdemHeaders,
          body: DesignLoopApprovalBodySchema,
          response: { 200: ApprovalItemSchema },
        },
        preValidation: logIgnoredIdentity(deps),
      },
      (req) =>
        decideViaQueue(deps, req, {
          id: `design_loop:${native(req.params.id, 'design_loop')}`,
          decision: 'approve',
          route: 'legacy',
          idem: req.headers['idempotency-key'],
        }),
    );

    const proposal = {
      schema: {
        params: z.object({ change_id: z.string().min(1).max(300) }),
        headers: IdemHeaders,
        body: ProposalDecisionBodySchema,
        response: { 200: ApprovalItemSchema },
      },
      preValidation: logIgnoredIdentity(deps),
    };
    for (const prefix of ['/api/v1', '/v1']) {
      r.post(`${prefix}/assistant/proposals/:change_id/decide`, proposal, (req) => {
        const id = native(req.params.change_id, 'change');
        if (req.body.change_id !== id) {
          throw new ActorError(
            'VALIDATION_FAILED',
            `body change_id ${req.body.change_id} is not the proposal in the path (${id})`,
            { issues: [{ path: 'body.change_id', message: 'must equal the path id' }] },
          );
        }
        return decideViaQueue(deps, req, {
          id: `change:${id}`,
          decision: req.body.decision,
          reason: req.body.reason,
          route: 'legacy',
          idem: req.headers['idempotency-key'],
        });
      });
    }
  };
}
