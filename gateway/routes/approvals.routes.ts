import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { ApprovalsActions as A } from '../../contracts/actions/approvals.actions.ts';
import {
  ApprovalDecisionSchema,
  ApprovalItemSchema,
  ApprovalKindSchema,
  ApprovalListResponseSchema,
  DecisionBodySchema,
  GateTargetFields,
  OverrideField,
  type ApprovalItem,
} from '../../contracts/approvals.ts';
import { decideViaQueue, logIgnoredIdentity, viewerOf } from '../approvals/decide.ts';
import type { GatewayDeps } from '../deps.ts';

const IdParams = z.object({ id: z.string().min(1).max(300) });
const IdemHeaders = z.looseObject({ 'idempotency-key': z.string().min(1).max(200).optional() });
const ListQuery = z.object({
  status: z.enum(['pending', 'decided', 'all']).default('pending'),
  project_id: z.string().min(1).max(200).optional(),
  kind: ApprovalKindSchema.optional(),
});

/**
 * Body of `POST /v1/approvals/gate:{run_id}/inline-decision` (SPEC "Approvals"): the decision a person gave in the
 * client's own prompt. `approver` and `approver_verified` are accepted and ignored: the identity comes from the
 * request's own authentication, never from the form (SPEC Gateway rule 6).
 */
export const InlineDecisionBodySchema = z.object({
  decision: ApprovalDecisionSchema,
  reason: z.string().max(2000).optional(),
  to_phase: z.string().max(200).optional(),
  approver: z.string().optional(),
  approver_verified: z.boolean().optional(),
  ...GateTargetFields,
  ...OverrideField,
});

/** Answers an item with its entity tag as the `ETag` header (the tag `If-Match` names on a decision). */
const withEtag = (reply: FastifyReply) => (item: ApprovalItem) => {
  if (item.etag) void reply.header('etag', item.etag);
  return item;
};

/**
 * The unified approvals API under `/v1/approvals` (SPEC "Endpoints / Approvals"): the list with `unscoped_count`, one
 * item, a decision, and a gate's inline decision. Every read and decision carries the caller's identity (headers and,
 * with gateway authentication on, the bearer token) to the `approvals` actor.
 */
export function approvalsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get('/', { schema: { querystring: ListQuery, response: { 200: ApprovalListResponseSchema } } }, async (req) =>
      call(deps.caller, A.list, { ...req.query, viewer: await viewerOf(deps, req) }),
    );

    r.get('/:id', { schema: { params: IdParams, response: { 200: ApprovalItemSchema } } }, async (req, reply) =>
      call(deps.caller, A.get, { id: req.params.id, viewer: await viewerOf(deps, req) }).then(withEtag(reply)),
    );

    r.post(
      '/:id/decision',
      {
        schema: {
          params: IdParams,
          headers: IdemHeaders,
          body: DecisionBodySchema,
          response: { 200: ApprovalItemSchema },
        },
        preValidation: logIgnoredIdentity(deps),
      },
      (req, reply) =>
        decideViaQueue(deps, req, {
          id: req.params.id,
          ...req.body,
          route: 'unified',
          idem: req.headers['idempotency-key'],
        }).then(withEtag(reply)),
    );

    r.post(
      '/:id/inline-decision',
      {
        schema: {
          params: IdParams,
          headers: IdemHeaders,
          body: InlineDecisionBodySchema,
          response: { 200: ApprovalItemSchema },
        },
        preValidation: logIgnoredIdentity(deps),
      },
      (req, reply) => {
        if (!req.params.id.startsWith('gate:')) {
          throw new ActorError(
            'VALIDATION_FAILED',
            `inline decisions are for gates only (gate:<run_id>), not ${req.params.id}`,
            { issues: [{ path: 'params.id', message: 'expected gate:<run_id>' }] },
          );
        }
        const { decision, reason, to_phase, phase, attempt, override_reason } = req.body;
        return decideViaQueue(deps, req, {
          id: req.params.id,
          decision,
          reason,
          to_phase,
          phase,
          attempt,
          override_reason,
          route: 'inline',
          idem: req.headers['idempotency-key'],
        }).then(withEtag(reply));
      },
    );
  };
}
