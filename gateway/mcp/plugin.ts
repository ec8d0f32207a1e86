import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JsonRpcCodes } from '../../contracts/errors.ts';
import type { Principal } from '../../contracts/principal.ts';
import { missingScope } from '../auth/scopes.ts';
import { challengeOf } from '../auth/resource-server.ts';
import { createTransportAuth, type TransportAuth } from './auth.ts';
import { mcpHttpRoutes, type McpHttpDeps } from './http.routes.ts';
import { mcpSseRoutes } from './sse.routes.ts';
import type { TokenVerifier } from '../auth/oauth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified principal of an OAuth access token on a tool-server request (unset: shared key or open). */
    principal?: Principal;
  }
}

export type McpPluginDeps = McpHttpDeps & {
  apiKey?: string;
  /** The access-token verifier when SERVICE_OAUTH_ISSUER is set. */
  verifier?: TokenVerifier;
  /** SERVICE_ALLOW_TWIN_MUTATIONS: twin.query_cypher is then a writing tool (mcp:write). */
  twinMutations?: boolean;
};

/** The JSON-RPC messages a request carries: a POST's body, or the legacy `GET /mcp/sse?request=` query. */
const messagesOf = (req: FastifyRequest): unknown[] => {
  const raw = req.method === 'POST' ? req.body : (req.query as { request?: unknown } | undefined)?.request;
  if (typeof raw !== 'string') return [];
  try {
    const m: unknown = JSON.parse(raw);
    return Array.isArray(m) ? m : [m];
  } catch {
    return []; // the route answers -32700
  }
};

/**
 * The tool server's HTTP surface, encapsulated: bodies arrive as text (so unparseable JSON is a JSON-RPC -32700, not
 * the gateway's error body), and every route checks the credential (`/health` is elsewhere, open): the shared key
 * and/or an OAuth access token (decision 0110). A token's scopes are checked before a message is handled: a message
 * beyond them is HTTP 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope=...` (decision 0111).
 */
export function mcpPlugin(deps: McpPluginDeps) {
  const auth: TransportAuth = createTransportAuth({ apiKey: deps.apiKey, verifier: deps.verifier });
  return async function plugin(app: FastifyInstance) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    app.addHook('onRequest', async (req, reply) => {
      const result = await auth.authenticate(req.headers.authorization);
      if (result.ok) {
        req.principal = result.principal;
        return;
      }
      const transport = req.url.startsWith('/mcp/sse') ? 'sse' : 'http';
      deps.log.warn({ transport, reason: result.reason, detail: result.detail }, 'mcp_auth_denied');
      return reply.code(result.status).header('www-authenticate', result.challenge).send(result.body);
    });

    app.addHook('preHandler', async (req, reply) => {
      if (!req.principal || !deps.verifier) return;
      const messages = messagesOf(req);
      const scope = missingScope(req.principal, messages, deps.twinMutations);
      if (!scope) return;
      const first = messages[0] as { id?: unknown; method?: unknown } | undefined;
      const method = typeof first?.method === 'string' ? first.method : 'this request';
      deps.log.warn({ subject: req.principal.subject, scope, method }, 'mcp_insufficient_scope');
      const message = `insufficient_scope: ${method} needs the ${scope} scope, which this token does not hold`;
      return reply
        .code(403)
        .header('www-authenticate', challengeOf(deps.verifier.config, { error: 'insufficient_scope', scope }))
        .send({
          jsonrpc: '2.0',
          id: typeof first?.id === 'string' || typeof first?.id === 'number' ? first.id : null,
          error: { code: JsonRpcCodes.AUTH_DENIED, message, data: { error: 'insufficient_scope', scope } },
        });
    });

    await app.register(mcpHttpRoutes(deps));
    await app.register(mcpSseRoutes(deps));
  };
}
