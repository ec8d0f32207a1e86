import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { RunFlowActions as F } from '../../contracts/actions/design-flows.actions.ts';
import { HarnessUsageActions as H } from '../../contracts/actions/harness-usage.actions.ts';
import {
  RunCancelBodySchema,
  RunListSchema,
  RunsActions as R,
  RunStartSchema,
  RunViewSchema,
} from '../../contracts/actions/runs.actions.ts';
import { RunGateDecisionBodySchema } from '../../contracts/approvals.ts';
import {
  FlowStateSchema,
  LifecycleViewSchema,
  PatchProposeBodySchema,
  PatchViewSchema,
  RunChangesSchema,
  UsageSummarySchema,
} from '../../contracts/design-flows.ts';
import { AppliedPatchViewSchema, DesignFlowSchema, UsageTotalsSchema } from '../../contracts/flows.ts';
import { decideViaQueue, logIgnoredIdentity } from '../approvals/decide.ts';
import { startedByOfRequest } from './run-starter.ts';
import type { GatewayDeps } from '../deps.ts';

const IdParams = z.object({ id: z.string().min(1).max(200) });
const ListQuery = z.object({
  project_id: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const RunWithUsageSchema = RunViewSchema.extend({ usage: UsageTotalsSchema });
const FLOW_IDS: readonly string[] = DesignFlowSchema.options;

/**
 * Design-flow runs under `/v1` (SPEC "Projects, runs, flows"): start, list, one run with usage, flow state, usage
 * summary, lifecycle, the run gate decision, flow patches, and `/v1/twin/runs/{id}/changes`. Every call goes to the
 * runs actor through the broker.
 */
export function runsRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post('/runs', { schema: { body: RunStartSchema, response: { 201: RunViewSchema } } }, async (req, reply) => {
      const flow = DesignFlowSchema.safeParse(req.body.design_flow);
      if (!flow.success) {
        const message = `design_flow ${JSON.stringify(req.body.design_flow)} is not a design flow; valid: ${FLOW_IDS.join(', ')}`;
        throw new ActorError('VALIDATION_FAILED', message, {
          issues: [{ path: 'body.design_flow', message }],
          valid: FLOW_IDS,
        });
      }
      // Who started it comes from the Authorization header only (decision 0113): the body schema has no such field.
      const started_by = await startedByOfRequest(deps, req.headers.authorization);
      const run = await call(deps.caller, R.start, {
        ...req.body,
        design_flow: flow.data,
        started_by,
        started_via: 'http',
      });
      return reply.code(201).header('location', `/v1/runs/${run.id}`).send(run);
    });

    r.get(
      '/runs',
      {
        schema: {
          querystring: ListQuery,
          response: { 200: RunListSchema },
        },
      },
      (req) => call(deps.caller, R.list, req.query),
    );

    r.get(
      '/runs/usage/summary',
      {
        schema: {
          querystring: z.object({
            window_hours: z.coerce.number().int().min(1).max(8760).default(24),
            /** Only the model calls made for this principal's subject (decision 0113); runs are counted all the same. */
            subject: z.string().min(1).max(500).optional(),
          }),
          response: { 200: UsageSummarySchema },
        },
      },
      // Runs in the window from the runs actor, model usage from the harness's call ledger.
      async (req) => {
        const [runs, ledger] = await Promise.all([
          call(deps.caller, F.usageSummary, { window_hours: req.query.window_hours }),
          call(deps.caller, H.usageSummary, req.query),
        ]);
        return { ...runs, ...(ledger.subject ? { subject: ledger.subject } : {}), usage: ledger.usage };
      },
    );

    r.get('/runs/:id', { schema: { params: IdParams, response: { 200: RunWithUsageSchema } } }, async (req) => {
      const [run, usage] = await Promise.all([
        call(deps.caller, R.get, { run_id: req.params.id }),
        call(deps.caller, F.usage, { run_id: req.params.id }),
      ]);
      return { ...run, usage };
    });

    r.get('/runs/:id/flow-state', { schema: { params: IdParams, response: { 200: FlowStateSchema } } }, (req) =>
      call(deps.caller, F.flowState, { run_id: req.params.id }),
    );

    r.get('/runs/:id/lifecycle', { schema: { params: IdParams, response: { 200: LifecycleViewSchema } } }, (req) =>
      call(deps.caller, F.lifecycle, { run_id: req.params.id }),
    );

    r.post(
      '/runs/:id/approval',
      {
        schema: {
          params: IdParams,
          headers: z.looseObject({ 'idempotency-key': z.string().min(1).max(200).optional() }),
          body: RunGateDecisionBodySchema,
          response: { 200: RunViewSchema },
        },
        preValidation: logIgnoredIdentity(deps),
      },
      // The approvals queue's decision code (gate:<run id>), surface unknown as on every older per-kind route.
      async (req) => {
        await decideViaQueue(deps, req, {
          id: `gate:${req.params.id}`,
          ...req.body,
          route: 'legacy',
          idem: req.headers['idempotency-key'],
        });
        return call(deps.caller, R.get, { run_id: req.params.id });
      },
    );

    // Cancel (issue 32, decision 0140): the run ends cancelled, its running phase's engine calls are aborted, its open
    // gate's queue item reads canceled, and everything it recorded stays. Unknown run 404; an ended run (a second
    // cancel too) 409; a body without a reason 422. No tool does this (SPEC: no cancellation over the tool protocol).
    r.post(
      '/runs/:id/cancel',
      {
        schema: {
          params: IdParams,
          body: RunCancelBodySchema,
          response: { 200: RunViewSchema },
        },
      },
      (req) => call(deps.caller, R.cancel, { run_id: req.params.id, reason: req.body.reason }),
    );

    r.post(
      '/runs/:id/patches',
      { schema: { params: IdParams, body: PatchProposeBodySchema, response: { 201: PatchViewSchema } } },
      async (req, reply) => {
        const patch = await call(deps.caller, F.proposePatch, { run_id: req.params.id, ...req.body });
        return reply.code(201).header('location', `/v1/runs/${patch.run_id}/patches/${patch.version}`).send(patch);
      },
    );

    r.post(
      '/runs/:id/patches/:version/apply',
      {
        schema: {
          params: IdParams.extend({ version: z.coerce.number().int().min(1) }),
          response: { 200: AppliedPatchViewSchema },
        },
      },
      (req) => call(deps.caller, F.applyPatch, { run_id: req.params.id, version: req.params.version }),
    );

    r.get('/twin/runs/:id/changes', { schema: { params: IdParams, response: { 200: RunChangesSchema } } }, (req) =>
      call(deps.caller, F.changes, { run_id: req.params.id }),
    );
  };
}
