import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { isUuid } from '../../brokers/db/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import { ApprovalsActions as A } from '../../contracts/actions/approvals.actions.ts';
import { ApprovalItemSchema, ApprovalListResponseSchema, type ApprovalItem } from '../../contracts/approvals.ts';
import { decideViaQueue, logIgnoredIdentity, viewerOf } from '../approvals/decide.ts';
import type { GatewayDeps } from '../deps.ts';

/**
 * A held tool call's decision through the chat routes: `decision` (approve or reject) or the chat client's boolean
 * `approved`; `approval_id` (or `id`) names the approval when the path does not. A reason is optional for a tool call.
 */
export const ChatToolDecisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'reject']).optional(),
    approved: z.boolean().optional(),
    reason: z.string().max(2000).optional(),
    approval_id: z.string().min(1).max(300).optional(),
    id: z.string().min(1).max(300).optional(),
  })
  .refine((b) => b.decision !== undefined || b.approved !== undefined, {
    message: 'give decision (approve or reject) or approved (boolean)',
    path: ['decision'],
  });

const ListQuery = z.object({
  status: z.enum(['pending', 'decided', 'all']).default('pending'),
  project_id: z.string().min(1).max(200).optional(),
});
const IdemHeaders = z.looseObject({ 'idempotency-key': z.string().min(1).max(200).optional() });
const toolId = (id: string) => (id.startsWith('tool:') ? id : `tool:${id}`);
const isApprovalId = (id: string) => id.startsWith('tool:') || isUuid(id);
/** The chat run a held call belongs to (its caller's run), when the registry recorded one. */
const runOf = (i: ApprovalItem) =>
  String((i.detail?.caller as { run_id?: unknown } | undefined)?.run_id ?? i.detail?.run_id ?? '');

/**
 * The chat client's older routes for held tool calls (SPEC "Approvals": `/v1/chat/tool_approvals/{id}` plus GET and
 * POST `/v1/chat/tool_approvals[/{run_id}]`): list the held calls (kind tool_call), of one chat run when a run id is
 * given, and resolve one. Decisions go through the same decision code as the unified route and record surface unknown.
 */
export function chatApprovalsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const list = async (req: FastifyRequest, q: z.infer<typeof ListQuery>, runId?: string) => {
      const out = await call(deps.caller, A.list, { ...q, kind: 'tool_call', viewer: await viewerOf(deps, req) });
      return runId === undefined ? out : { ...out, items: out.items.filter((i) => runOf(i) === runId) };
    };
    const decide = (req: FastifyRequest, id: string, b: z.infer<typeof ChatToolDecisionBodySchema>) => {
      const idem = req.headers['idempotency-key'];
      return decideViaQueue(deps, req, {
        id: toolId(id),
        decision: b.decision ?? (b.approved ? 'approve' : 'reject'),
        reason: b.reason,
        route: 'legacy',
        idem: typeof idem === 'string' ? idem : undefined,
      });
    };
    const post = { headers: IdemHeaders, body: ChatToolDecisionBodySchema, response: { 200: ApprovalItemSchema } };

    r.get('/', { schema: { querystring: ListQuery, response: { 200: ApprovalListResponseSchema } } }, (req) =>
      list(req, req.query),
    );

    r.get(
      '/:run_id',
      {
        schema: {
          params: z.object({ run_id: z.string().min(1).max(300) }),
          querystring: ListQuery,
          response: { 200: ApprovalListResponseSchema },
        },
      },
      (req) => list(req, req.query, req.params.run_id),
    );

    r.post('/', { schema: post, preValidation: logIgnoredIdentity(deps) }, (req) => {
      const id = req.body.approval_id ?? req.body.id;
      if (!id)
        throw new ActorError('VALIDATION_FAILED', 'name the held call: approval_id (tool:<id>)', {
          issues: [{ path: 'body.approval_id', message: 'required without an id in the path' }],
        });
      return decide(req, id, req.body);
    });

    r.post(
      '/:id',
      {
        schema: { ...post, params: z.object({ id: z.string().min(1).max(300) }) },
        preValidation: logIgnoredIdentity(deps),
      },
      async (req) => {
        const named = req.body.approval_id ?? req.body.id;
        if (isApprovalId(req.params.id) || !named) return decide(req, req.params.id, req.body);
        // The path names a chat run: the approval in the body must be one of its held calls.
        const item = await call(deps.caller, A.get, { id: toolId(named) });
        if (runOf(item) !== req.params.id)
          throw ActorError.notFound('approval', `${toolId(named)} of run ${req.params.id}`);
        return decide(req, named, req.body);
      },
    );
  };
}
