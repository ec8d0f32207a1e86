import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { HarnessConfigActions as A } from '../../contracts/actions/harness-config.actions.ts';
import {
  CredentialCreateSchema,
  CredentialMaskedSchema,
  ProjectRoutesPutSchema,
  ProjectRoutesSchema,
  ProvidersListSchema,
  RoutingQuerySchema,
  RoutingViewSchema,
  SelectionPutSchema,
  SelectionSchema,
} from '../../contracts/harness-config.ts';
import type { HarnessWritesHealth } from '../../contracts/health.ts';
import type { GatewayDeps } from '../deps.ts';
import { isLoopback } from '../plugins/host-check.ts';

/** The header carrying SERVICE_HARNESS_ADMIN_TOKEN (the dashboard's admin field; CORS allows it). */
export const ADMIN_TOKEN_HEADER = 'x-service-admin-token';

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/**
 * The harness write routes' state (issue 27): behind SERVICE_HARNESS_ADMIN_TOKEN when it is set; else open on a
 * loopback gateway (the one local person) and closed on any other bind, where anyone reaching the gateway could
 * store a credential or move the routes (docs/decisions/0012).
 */
export function harnessWritesState(
  config: Pick<GatewayDeps['config'], 'SERVICE_HOST' | 'SERVICE_HARNESS_ADMIN_TOKEN'>,
): HarnessWritesHealth {
  if (config.SERVICE_HARNESS_ADMIN_TOKEN)
    return { status: 'admin_token', detail: 'the harness write routes need X-Service-Admin-Token' };
  if (isLoopback(config.SERVICE_HOST))
    return {
      status: 'open',
      detail: `the gateway listens on loopback (${config.SERVICE_HOST}): no admin token needed`,
    };
  return {
    status: 'closed',
    detail: `the harness write routes are closed: the gateway listens on ${config.SERVICE_HOST}, beyond loopback, and SERVICE_HARNESS_ADMIN_TOKEN is not set; set it to open them (credentials, selection, project routes)`,
  };
}

/**
 * SPEC Authentication rule 7: when the gateway sets SERVICE_HARNESS_ADMIN_TOKEN, the harness write routes need it in
 * X-Service-Admin-Token: missing is 401 AUTH_REQUIRED, wrong is 403 FORBIDDEN. Compared as SHA-256 digests in
 * constant time, so neither the content nor the length leaks. Without a token they are open only on a loopback
 * gateway; closed elsewhere, 403 FORBIDDEN (reason harness_writes_closed).
 */
export function adminTokenCheck(token: string | undefined, state?: HarnessWritesHealth) {
  if (state?.status === 'closed')
    return async () => {
      throw new ActorError('FORBIDDEN', state.detail, { reason: 'harness_writes_closed' });
    };
  if (!token) return async () => undefined;
  const want = digest(token);
  return async (req: FastifyRequest) => {
    const got = req.headers[ADMIN_TOKEN_HEADER];
    if (got === undefined || got === '')
      throw new ActorError('AUTH_REQUIRED', 'this harness route needs the admin token in X-Service-Admin-Token', {
        reason: 'missing_admin_token',
      });
    if (typeof got !== 'string' || !crypto.timingSafeEqual(digest(got), want))
      throw new ActorError('FORBIDDEN', 'the admin token in X-Service-Admin-Token is wrong', {
        reason: 'wrong_admin_token',
      });
  };
}

const ProjectParams = z.object({ project_id: z.string().min(1).max(200) });

/**
 * `/v1/harness/*` (SPEC part 6): credentials (stored, answered masked), providers, the durable selection (400 when
 * the model does not fit the provider's family), the effective routing per role, and a project's routes (this
 * service's addition: where rule 11's "project's routes" are written). Every call goes to the harness actor.
 */
export function harnessRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const state = harnessWritesState(deps.config);
    if (state.status === 'closed')
      deps.log.warn({ event: 'harness_writes_closed', host: deps.config.SERVICE_HOST }, state.detail);
    const admin = adminTokenCheck(deps.config.SERVICE_HARNESS_ADMIN_TOKEN, state);

    r.post(
      '/credentials',
      { onRequest: admin, schema: { body: CredentialCreateSchema, response: { 201: CredentialMaskedSchema } } },
      async (req, reply) => reply.code(201).send(await call(deps.caller, A.addCredential, req.body)),
    );

    r.get('/providers', { schema: { response: { 200: ProvidersListSchema } } }, () =>
      call(deps.caller, A.providers, {}),
    );

    r.put(
      '/selection',
      { onRequest: admin, schema: { body: SelectionPutSchema, response: { 200: SelectionSchema } } },
      (req) => call(deps.caller, A.setSelection, req.body),
    );

    r.get('/routing', { schema: { querystring: RoutingQuerySchema, response: { 200: RoutingViewSchema } } }, (req) =>
      call(deps.caller, A.routing, req.query),
    );

    r.put(
      '/routing/projects/:project_id',
      {
        onRequest: admin,
        schema: { params: ProjectParams, body: ProjectRoutesPutSchema, response: { 200: ProjectRoutesSchema } },
      },
      (req) => call(deps.caller, A.setProjectRoutes, { project_id: req.params.project_id, ...req.body }),
    );
  };
}
