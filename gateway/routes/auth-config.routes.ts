import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceConfig } from '../../brokers/config.ts';
import {
  AuthConfigSchema,
  DASHBOARD_CALLBACK_PATH,
  DASHBOARD_SCOPES,
  type AuthConfig,
} from '../../contracts/auth-config.ts';
import { oauthConfigOf } from '../auth/oauth.ts';
import type { GatewayDeps } from '../deps.ts';

/**
 * The dashboard's sign-in settings (decision 0120): on only when the node has an issuer and a dashboard client id.
 * Every field is public: the dashboard is a public client (PKCE, no secret), and the resource is the audience the
 * gateway's verifier checks, so the token the person gets is one the approval routes accept.
 */
export function authConfigOf(
  config: Pick<
    ServiceConfig,
    | 'SERVICE_PUBLIC_URL'
    | 'SERVICE_OAUTH_ISSUER'
    | 'SERVICE_OAUTH_AUDIENCE'
    | 'SERVICE_OAUTH_SCOPES_CLAIM'
    | 'SERVICE_OAUTH_DASHBOARD_CLIENT_ID'
  >,
): AuthConfig {
  const oauth = oauthConfigOf(config);
  if (!oauth || !config.SERVICE_OAUTH_DASHBOARD_CLIENT_ID) return { sign_in: false };
  return {
    sign_in: true,
    issuer: oauth.issuer,
    client_id: config.SERVICE_OAUTH_DASHBOARD_CLIENT_ID,
    scopes: [...DASHBOARD_SCOPES],
    resource: oauth.audience,
    callback_path: DASHBOARD_CALLBACK_PATH,
  };
}

/** `GET /v1/auth/config`: open (the dashboard reads it before anyone signs in). */
export function authConfigRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const answer = authConfigOf(deps.config);
    app
      .withTypeProvider<ZodTypeProvider>()
      .get('/config', { schema: { response: { 200: AuthConfigSchema } } }, () => answer);
  };
}
