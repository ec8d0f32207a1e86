import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeSummary, routeTag } from '../../contracts/api-descriptions.ts';
import type { MultipartRouteConfig } from './route-table.ts';

/** The `file` part of a multipart form, as the API reference shows it. */
const FILE_PART = z.string().meta({ format: 'binary', description: 'the file, one part named file' });

/** Paths the document covers (SPEC: the HTTP API); the MCP endpoints, metrics, the dashboard and the docs are not it. */
export const DOCUMENTED = /^\/(v1|api\/v1)(\/|$)|^\/health$/;

/**
 * The OpenAPI 3.1 document of the HTTP API, built by @fastify/swagger from the zod schemas every route validates with
 * (fastify-type-provider-zod's transform: no second copy of a shape), served at `/openapi.json`, with an interactive
 * reference page at `/docs` (@fastify/swagger-ui). Each route's summary is the spec's own words for it, or this
 * service's for a route the spec leaves unnamed, and its tag the area it belongs to (contracts/api-descriptions.ts). Register before the routes: the document collects them as they register.
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
      // A multipart route checks its form itself; the reference shows the form from the same contract.
      const form = (arg.route.config as MultipartRouteConfig | undefined)?.form;
      const out = jsonSchemaTransform(
        form
          ? {
              ...arg,
              schema: { ...arg.schema, consumes: ['multipart/form-data'], body: form.extend({ file: FILE_PART }) },
            }
          : arg,
      );
      if (!documented) return { ...out, schema: { ...out.schema, hide: true } };
      const method = [arg.route.method].flat()[0] ?? 'GET';
      const summary = out.schema.summary ?? routeSummary(method, arg.url);
      // A prefix's root route (`/v1/projects/`) answers without the slash too; it is documented as the spec writes it.
      const url = out.url.replace(/(.)\/$/, '$1');
      return { ...out, url, schema: { ...out.schema, tags: [routeTag(arg.url)], ...(summary ? { summary } : {}) } };
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // swagger-ui sets inline styles (its layout and the model views); scripts stay 'self' only.
    transformStaticCSP: (header) => header.replace(/style-src ([^;]*);/, "style-src $1 'unsafe-inline';"),
  });
  // swagger-ui 6.1.3 redirects /docs/static/index.html?<query> to itself (query kept): answer it with the page's home.
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/docs/static/index.html?')) return reply.redirect('/docs/', 302);
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
