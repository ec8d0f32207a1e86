import { tokenVerifierFor } from './auth/oauth.ts';
import { transportAuthMode } from './mcp/auth.ts';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Context, ServiceSchema } from 'moleculer';
import { action } from '../brokers/actions.ts';
import type { Infra } from '../brokers/infra.ts';
import { TOOLCALL_CANCEL_EVENT } from '../contracts/actions/adapters.actions.ts';
import {
  KNOWLEDGE_CHANGED_EVENT,
  KnowledgeChangedSchema,
  TWIN_CHANGED_EVENT,
  TwinChangedSchema,
} from '../contracts/actions/change-events.ts';
import { CallerChannel, TOOLCALL_CLOSED_EVENT } from '../contracts/actions/gateway.actions.ts';
import { buildGateway, routeTableOf } from './app.ts';
import { createHealth, HEALTH_PROBE_MS } from './health.ts';
import { linkProbes } from './health-links.ts';
import type { McpDeps } from './mcp/context.ts';
import type { RouteEntry } from './plugins/route-table.ts';
import { elicitationPolicyOf } from './mcp/elicitation-policy.ts';
import { InflightCalls } from './mcp/inflight.ts';
import { LOG_LEVELS } from './mcp/protocol.ts';
import { PendingRequests } from './mcp/outbound.ts';
import { ResourceUpdates } from './mcp/resource-updates.ts';
import { createMcpServer } from './mcp/server.ts';
import { MemorySessionStore, RedisSessionStore, type SessionStore } from './mcp/session-store.ts';
import { runStdio } from './mcp/stdio.ts';
import { StandaloneStreams } from './mcp/streams.ts';
import { harnessWritesState } from './routes/harness.routes.ts';

/** How the launcher runs the gateway, and where it ended up listening (port 0 picks a free one). */
export interface GatewayRuntime {
  transport?: 'http' | 'sse' | 'stdio';
  address?: { host: string; port: number };
  /** Every route the HTTP gateway registered (method and URL pattern), once it is built. */
  routes?: readonly RouteEntry[];
  /** The HTTP server, once built: it emits `drain` when a stop begins (gateway/plugins/drain.ts). */
  server?: Server;
  /** Called when the stdio client closes stdin: the process should drain and exit. */
  onStdioClosed?: () => void;
  /** Set once the gateway is built: starts listening (or reading stdin). The launcher calls it after every local
   * actor has started, so the first request never finds an actor of this process still starting. */
  serve?: () => Promise<void>;
}

/** MCP log levels: a message passes when it is at or above the session's level. */
function logLevelPasses(level: string, min: string): boolean {
  const rank = (l: string) => (LOG_LEVELS as readonly string[]).indexOf(l);
  return rank(level) >= Math.max(0, rank(min));
}

/**
 * The `gateway` actor: owns the HTTP server (`/v1`, `/health`, `/metrics`, `/mcp`, `/mcp/sse`) or the stdio loop, and
 * the MCP sessions and streams. Thin: parse, call actors through the broker, map answers to the wire.
 */
export function createGatewayService(
  infra: Infra,
  runtime: GatewayRuntime = {},
  env: NodeJS.ProcessEnv = process.env,
): ServiceSchema {
  let app: FastifyInstance | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  const inflight = new InflightCalls();
  const pending = new PendingRequests();
  const streams = new StandaloneStreams();
  let sessions: SessionStore | undefined;
  const updates = new ResourceUpdates(async (id) => (sessions ? sessions.subscriptions(id) : []), infra.log);
  const notifyFailed = (err: unknown) => infra.log.warn({ err }, 'mcp resource notification failed');

  return {
    name: 'gateway',

    // The caller channel (kit/caller-port.ts): this node holds the streams of the calls it started.
    actions: {
      toolProgress: action(CallerChannel.progress, (p) => ({
        delivered: inflight.progress(p.call_id, p.progress, p.message, p.total),
      })),
      toolNotify: action(CallerChannel.notify, (p) => {
        const c = inflight.get(p.call_id);
        if (!c) return { delivered: false };
        if (p.method === 'notifications/message' && !logLevelPasses(String(p.params.level ?? 'info'), c.logLevel))
          return { delivered: false };
        return { delivered: c.out.notify(p.method, p.params) };
      }),
      toolRequest: action(CallerChannel.request, async (p) => {
        const c = inflight.get(p.call_id);
        if (!c) return { delivered: false as const, reason: 'the call is not in flight on this node' };
        if (p.hold && !c.asksDecisions)
          return {
            delivered: false as const,
            reason: c.canElicit
              ? 'decisions are not asked in this client (SERVICE_ELICITATION_APPROVALS): the Approvals queue decides'
              : 'the client did not declare elicitation at initialize',
          };
        const out = p.hold ? (c.out.forHold?.(c.progressToken !== undefined) ?? c.out) : c.out;
        if (!out.canStream)
          return { delivered: false as const, reason: 'the client cannot be reached on this call (no SSE stream)' };
        return { delivered: true as const, result: await out.request(p.method, p.params, { id: p.request_id }) };
      }),
      toolWithdraw: action(CallerChannel.withdraw, (p) => {
        if (!pending.withdraw(p.request_id, p.reason)) return { delivered: false };
        const c = inflight.peek(p.call_id);
        const out = c ? (c.out.forHold?.(c.progressToken !== undefined) ?? c.out) : undefined;
        return {
          delivered: out?.notify('notifications/cancelled', { requestId: p.request_id, reason: p.reason }) ?? false,
        };
      }),
    },

    // Changes other actors announce: sessions subscribed to the resources they touch are told (MCP subscriptions).
    events: {
      [TWIN_CHANGED_EVENT](ctx: Context) {
        const change = TwinChangedSchema.safeParse(ctx.params);
        if (change.success) void updates.twinChanged(change.data).catch(notifyFailed);
      },
      [KNOWLEDGE_CHANGED_EVENT](ctx: Context) {
        const change = KnowledgeChangedSchema.safeParse(ctx.params);
        if (change.success) void updates.knowledgeChanged(change.data).catch(notifyFailed);
      },
    },

    async started() {
      const broker = this.broker;
      const { config, log } = infra;
      const health = createHealth({
        caller: broker,
        broker,
        version: '0.1.0',
        auth: () => transportAuthMode(config),
        harnessWrites: () => harnessWritesState(config),
        links: linkProbes(broker, infra, HEALTH_PROBE_MS),
      });
      const redis = infra.redis();
      sessions = redis ? new RedisSessionStore(redis, config.SERVICE_NAMESPACE) : new MemorySessionStore();
      const deps: McpDeps = {
        bus: broker,
        sessions,
        inflight,
        pending,
        log,
        nodeID: broker.nodeID,
        defaultProfile: config.SERVICE_PROFILE,
        health: (client) => health(client),
        cancelCall: (callId, reason) => void broker.broadcast(TOOLCALL_CANCEL_EVENT, { call_id: callId, reason }),
        callClosed: (callId) =>
          void broker.broadcast(TOOLCALL_CLOSED_EVENT, { call_id: callId, reason: 'the client closed the stream' }),
        elicitation: elicitationPolicyOf(config),
        holdMaxSeconds: Math.max(config.SERVICE_APPROVAL_HOLD_SECONDS, config.SERVICE_APPROVAL_HOLD_PROGRESS_SECONDS),
        db: () => infra.db(),
        updates,
        conformanceFixtures: env.MCP_CONFORMANCE_FIXTURES === '1',
      };
      const server = createMcpServer(deps);

      if (runtime.transport === 'stdio') {
        runtime.serve = async () => {
          void runStdio({ server, deps, input: process.stdin, output: process.stdout }).then(() =>
            runtime.onStdioClosed?.(),
          );
        };
        return;
      }
      app = await buildGateway({
        caller: broker,
        config,
        log,
        registry: infra.metrics.registry,
        // No MCP session calls GET /health: it names no client (another session's clientInfo is not its to show).
        health: () => health(),
        db: () => infra.db(),
        mcp: {
          ...deps,
          server,
          streams,
          apiKey: config.SERVICE_MCP_API_KEY,
          verifier: tokenVerifierFor(config),
          twinMutations: config.SERVICE_ALLOW_TWIN_MUTATIONS,
        },
      });
      const http = app;
      runtime.routes = routeTableOf(app);
      runtime.server = app.server;
      runtime.serve = async () => {
        await http.listen({ host: config.SERVICE_HOST, port: config.SERVICE_PORT });
        const addr = http.server.address();
        if (addr && typeof addr === 'object') runtime.address = { host: config.SERVICE_HOST, port: addr.port };
        keepAlive = setInterval(() => streams.keepAlive(), 15_000);
        keepAlive.unref();
      };
    },

    async stopped() {
      clearInterval(keepAlive);
      await app?.close();
    },
  };
}
