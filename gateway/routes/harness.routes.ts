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
import type { GatewayDeps } from '../deps.ts';

/** The header carrying SERVICE_HARNESS_ADMIN_TOKEN (the dashboard's admin field; CORS allows it). */
export const ADMIN_TOKEN_HEADER = 'x-service-admin-token';

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/**
 * SPEC Authentication rule 7: when the gateway sets SERVICE_HARNESS_ADMIN_TOKEN, the harness write routes need it in
 * X-Service-Admin-Token: missing is 401 AUTH_REQUIRED, wrong is 403 FORBIDDEN. Compared as SHA-256 digests in
 * constant time, so neither the content nor the length leaks.
 */
export function adminTokenCheck(token: string | undefined) {
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
    const admin = adminTokenCheck(deps.config.SERVICE_HARNESS_ADMIN_TOKEN);

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
