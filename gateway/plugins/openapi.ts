import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { apiDescription } from '../../contracts/api-descriptions.ts';

/** Paths the document covers (SPEC: the HTTP API); the MCP endpoints, metrics, the dashboard and the docs are not it. */
export const DOCUMENTED = /^\/(v1|api\/v1)(\/|$)|^\/health$/;

/**
 * The OpenAPI 3.1 document of the HTTP API, built by @fastify/swagger from the zod schemas every route validates with
 * (fastify-type-provider-zod's transform: no second copy of a shape), served at `/openapi.json`, with an interactive
 * reference page at `/docs` (@fastify/swagger-ui). Each route's summary is the spec's own words for it
 * (contracts/api-descriptions.ts). Register before the routes: the document collects them as they register.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Engineering design service',
        version,
        description:
          'The HTTP API of the engineering design service: projects, the digital twin, design-flow runs and their ' +
          'gates, approvals, simulation results, knowledge, sessions, the agent harness and chat. Agents reach the ' +
          'tools over MCP at /mcp.',
      },
    },
    transform: (arg) => {
      const documented = DOCUMENTED.test(arg.url);
      const out = jsonSchemaTransform(arg);
      if (!documented) return { ...out, schema: { ...out.schema, hide: true } };
      const method = [arg.route.method].flat()[0] ?? 'GET';
      const summary = apiDescription(method, arg.url);
      return summary && !out.schema.summary ? { ...out, schema: { ...out.schema, summary } } : out;
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
  // swagger-ui 6.1.3 redirects /docs/static/index.html?<query> to itself (query kept): answer it with the page's home.
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/docs/static/index.html?')) return reply.redirect('/docs/', 302);
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
