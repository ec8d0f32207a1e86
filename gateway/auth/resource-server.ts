import type { FastifyInstance } from 'fastify';
import { OAUTH_SCOPES } from '../../contracts/principal.ts';
import type { OAuthConfig } from './oauth.ts';

/** Where this server's RFC 9728 metadata lives: `<public url>/.well-known/oauth-protected-resource`. */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

export const metadataUrlOf = (config: OAuthConfig) => `${config.resource.replace(/\/mcp$/, '')}${METADATA_PATH}`;

/** The protected resource metadata (RFC 9728 section 2). */
export function resourceMetadataOf(config: OAuthConfig) {
  return {
    resource: config.resource,
    authorization_servers: [config.issuer],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Engineering design service tool server',
  };
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;

/**
 * The `WWW-Authenticate` challenge of a refused MCP request (RFC 6750 section 3, RFC 9728 section 5.1): always the
 * metadata URL; `error="invalid_token"` when a token was sent and refused; `error="insufficient_scope"` with the scope
 * needed when the token is good but its scopes are not enough.
 */
export function challengeOf(
  config: OAuthConfig,
  refusal?: { error: 'invalid_token' | 'insufficient_scope'; description?: string; scope?: string },
): string {
  const parts = [`resource_metadata=${quoted(metadataUrlOf(config))}`];
  if (refusal) parts.push(`error=${quoted(refusal.error)}`);
  if (refusal?.scope) parts.push(`scope=${quoted(refusal.scope)}`);
  if (refusal?.description)
    parts.push(`error_description=${quoted(refusal.description.replace(/[^\x20-\x7e]/g, ' '))}`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * `GET /.well-known/oauth-protected-resource` and its path-suffixed form for the `/mcp` resource (RFC 9728 section
 * 3.1; the MCP SDK client asks the suffixed one first). Open, like `/health`.
 */
export function resourceMetadataRoutes(config: OAuthConfig) {
  return async function routes(app: FastifyInstance) {
    const body = resourceMetadataOf(config);
    for (const url of [METADATA_PATH, `${METADATA_PATH}/mcp`])
      app.get(url, { schema: { hide: true } }, async (_req, reply) =>
        reply.header('cache-control', 'public, max-age=300').send(body),
      );
  };
}
