import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import client from 'prom-client';
import { getOrCreate } from '../brokers/metrics.ts';
import type { GatewayDeps } from './deps.ts';
import { mcpPlugin } from './mcp/plugin.ts';
import { resourceMetadataRoutes } from './auth/resource-server.ts';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { answerClientError, dropIdleConnections, httpServerOptions } from './plugins/http-limits.ts';
import { refuseHostileInput } from './plugins/input-guard.ts';
import { collectRoutes, type RouteEntry } from './plugins/route-table.ts';
import { createHostCheck } from './plugins/host-check.ts';
import { dashboardPlugin } from './plugins/dashboard.ts';
import { corsPlugin } from './plugins/cors.ts';
import { conversionRoutes } from './routes/convert.routes.ts';
import { opsRoutes } from './routes/ops.routes.ts';
import { knowledgeRoutes } from './routes/knowledge.routes.ts';
import { projectsRoutes } from './routes/projects.routes.ts';
import { runsRoutes } from './routes/runs.routes.ts';
import { designFlowsRoutes } from './routes/design-flows.routes.ts';
import { sessionsRoutes } from './routes/sessions.routes.ts';
import { simulationRoutes } from './routes/simulation.routes.ts';
import { simulationMeshRoutes } from './routes/simulation-mesh.routes.ts';
import { bomRoutes } from './routes/twin-bom.routes.ts';
import { complianceRoutes } from './routes/compliance.routes.ts';
import { twinGraphRoutes } from './routes/twin-graph.routes.ts';
import { twinWritesRoutes } from './routes/twin-writes.routes.ts';
import { twinRoutes } from './routes/twin.routes.ts';
import { approvalsRoutes } from './routes/approvals.routes.ts';
import { approvalsLegacyRoutes } from './routes/approvals-legacy.routes.ts';
import { chatApprovalsRoutes } from './routes/chat-approvals.routes.ts';
import { approvalAuthFor } from './approvals/auth.ts';
import { authConfigRoutes } from './routes/auth-config.routes.ts';
import { harnessRoutes } from './routes/harness.routes.ts';
import { chatRoutes } from './routes/chat.routes.ts';
import { memoryRoutes } from './routes/memory.routes.ts';
import { assistantRoutes } from './routes/assistant.routes.ts';
import { drainOnClose } from './plugins/drain.ts';
import { registerOpenApi } from './plugins/openapi.ts';

const routeTables = new WeakMap<FastifyInstance, readonly RouteEntry[]>();

/** Every route a gateway built by `buildGateway` registered (method and URL pattern). */
export const routeTableOf = (app: FastifyInstance): readonly RouteEntry[] => routeTables.get(app) ?? [];

/**
 * Builds the gateway (STYLE R10): a Fastify instance that never listens by itself. Tests use `inject` or listen on a
 * port of their own; `gateway.service.ts` listens in production.
 */
export async function buildGateway(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: deps.config.SERVICE_BODY_LIMIT_BYTES,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 500 },
    ...httpServerOptions(deps.config),
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  dropIdleConnections(app.server);
  drainOnClose(app, deps.config.SERVICE_HTTP_DRAIN_MS);
  const routes = collectRoutes(app);
  routeTables.set(app, routes);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, deps.log);
  // JSON routes take JSON only: another media type is 415 (the multipart and tool-server routes add their own parsers).
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', refuseHostileInput);
  approvalAuthFor(deps.config); // a bad SERVICE_AUTH_TOKENS_PATH stops the start here, not at the first approval

  const requests = getOrCreate(
    deps.registry,
    'service_http_requests_total',
    () =>
      new client.Counter({
        name: 'service_http_requests_total',
        help: 'HTTP requests answered by the gateway',
        labelNames: ['method', 'route', 'status'] as const,
        registers: [deps.registry],
      }),
  );
  app.addHook('onResponse', async (req, reply) => {
    requests.inc({ method: req.method, route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) });
  });
  app.addHook(
    'onRequest',
    createHostCheck({ boundHost: deps.config.SERVICE_HOST, extraHosts: deps.config.SERVICE_ALLOWED_HOSTS.split(',') }),
  );

  const hosts = { boundHost: deps.config.SERVICE_HOST, extraHosts: deps.config.SERVICE_ALLOWED_HOSTS.split(',') };
  await app.register(corsPlugin(hosts));
  await registerOpenApi(app, '0.1.0');
  await app.register(opsRoutes(deps));
  await app.register(projectsRoutes(deps), { prefix: '/v1/projects' });
  await app.register(runsRoutes(deps), { prefix: '/v1' });
  await app.register(designFlowsRoutes(deps), { prefix: '/v1/design-flows' });
  await app.register(sessionsRoutes(deps), { prefix: '/v1/sessions' });
  await app.register(knowledgeRoutes(deps), { prefix: '/v1/knowledge' });
  await app.register(twinRoutes(deps), { prefix: '/v1/twin' });
  await app.register(twinGraphRoutes(deps), { prefix: '/v1/twin' });
  await app.register(twinWritesRoutes(deps), { prefix: '/v1/twin' });
  await app.register(simulationRoutes(deps), { prefix: '/v1/simulation' });
  await app.register(simulationMeshRoutes(deps), { prefix: '/v1/simulation' });
  await app.register(bomRoutes(deps), { prefix: '/v1/bom' });
  await app.register(complianceRoutes(deps), { prefix: '/v1/compliance' });
  await app.register(approvalsRoutes(deps), { prefix: '/v1/approvals' });
  await app.register(approvalsLegacyRoutes(deps));
  await app.register(chatApprovalsRoutes(deps), { prefix: '/v1/chat/tool_approvals' });
  await app.register(authConfigRoutes(deps), { prefix: '/v1/auth' });
  await app.register(conversionRoutes(deps));
  await app.register(harnessRoutes(deps), { prefix: '/v1/harness' });
  await app.register(chatRoutes(deps), { prefix: '/v1/chat' });
  await app.register(memoryRoutes(deps), { prefix: '/v1/memory' });
  await app.register(assistantRoutes(deps));
  if (deps.mcp?.verifier) await app.register(resourceMetadataRoutes(deps.mcp.verifier.config));
  if (deps.mcp) await app.register(mcpPlugin(deps.mcp));
  if (deps.dashboard !== false) await app.register(dashboardPlugin(deps.dashboard ?? {}));
  return app;
}
