import type { FastifyInstance } from 'fastify';
import { authErrorBody, checkApiKey } from './auth.ts';
import { mcpHttpRoutes, type McpHttpDeps } from './http.routes.ts';
import { mcpSseRoutes } from './sse.routes.ts';

/**
 * The tool server's HTTP surface, encapsulated: bodies arrive as text (so unparseable JSON is a JSON-RPC -32700, not
 * the gateway's error body), and every route checks the shared API key when one is set (`/health` is elsewhere, open).
 */
export function mcpPlugin(deps: McpHttpDeps & { apiKey?: string }) {
  return async function plugin(app: FastifyInstance) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    app.addHook('onRequest', async (req, reply) => {
      const check = checkApiKey(deps.apiKey, req.headers.authorization);
      if (check.ok) return;
      const transport = req.url.startsWith('/mcp/sse') ? 'sse' : 'http';
      deps.log.warn({ transport, reason: check.reason }, 'mcp_auth_denied');
      return reply.code(401).header('www-authenticate', 'Bearer').send(authErrorBody(check.reason));
    });

    await app.register(mcpHttpRoutes(deps));
    await app.register(mcpSseRoutes(deps));
  };
}
