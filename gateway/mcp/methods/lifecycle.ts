import { z } from 'zod';
import type { JSONRPCServer } from 'json-rpc-2.0';
import type { McpDeps, McpRequestContext } from '../context.ts';
import { rpcError } from '../errors.ts';
import { InflightCalls } from '../inflight.ts';
import {
  LOG_LEVELS,
  PINNED_PROTOCOL_VERSION,
  SERVER_CAPABILITIES,
  SERVER_INFO,
  supportsElicitation,
} from '../protocol.ts';

const InitializeParams = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.looseObject({ elicitation: z.unknown().optional() }).default({}),
  clientInfo: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).default({}),
});

const CancelledParams = z.looseObject({ requestId: z.union([z.string(), z.number()]), reason: z.string().optional() });

function parse<T extends z.ZodType>(schema: T, params: unknown, method: string): z.output<T> {
  const r = schema.safeParse(params ?? {});
  if (!r.success)
    throw rpcError(
      'INVALID_PARAMS',
      `invalid params for ${method}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
    );
  return r.data;
}

/**
 * `initialize` (opens a session, answers the pinned revision, records skew), `ping`, `logging/setLevel`,
 * `health/check`, and the notifications `initialized` and `cancelled` (a client cancelling its call stops it).
 */
export function addLifecycleMethods(server: JSONRPCServer<McpRequestContext>, deps: McpDeps): void {
  server.addMethod('initialize', async (params, ctx) => {
    const p = parse(InitializeParams, params, 'initialize');
    const skew =
      p.protocolVersion !== PINNED_PROTOCOL_VERSION
        ? { requested: p.protocolVersion, pinned: PINNED_PROTOCOL_VERSION }
        : undefined;
    const session = await deps.sessions.create({
      protocol_version: PINNED_PROTOCOL_VERSION,
      requested_version: p.protocolVersion,
      client_info: p.clientInfo,
      can_elicit: p.capabilities.elicitation !== undefined && supportsElicitation(PINNED_PROTOCOL_VERSION),
      transport: ctx.transport,
      log_level: 'info',
      protocol_skew: skew,
      created_at: new Date().toISOString(),
      ...(ctx.principal ? { principal: ctx.principal } : {}),
    });
    ctx.newSession = session;
    if (skew) deps.log.info({ session: session.id, ...skew, client: p.clientInfo.name }, 'client.protocol_skew');
    return {
      protocolVersion: PINNED_PROTOCOL_VERSION,
      capabilities: SERVER_CAPABILITIES,
      serverInfo: SERVER_INFO,
      instructions:
        'Engineering design service. Tools are named <adapter>.<method>; tools.search finds tools by words. Writing tools called remotely wait for a person to approve them. Prompts walk through a design-flow run, a simulation result review and a gate brief; resources (service://...) hold the knowledge sources and, per project, work products and simulation results.',
    };
  });

  server.addMethod('ping', () => ({}));

  server.addMethod('notifications/initialized', () => undefined);

  server.addMethod('notifications/cancelled', (params, ctx) => {
    const p = CancelledParams.safeParse(params);
    if (!p.success) return undefined;
    const call = deps.inflight.findRequest(InflightCalls.key(ctx.sessionKey, p.data.requestId));
    if (call && !call.cancelled) {
      call.cancelled = true;
      deps.cancelCall(call.callId, p.data.reason ?? 'cancelled by the client');
    }
    return undefined;
  });

  server.addMethod('logging/setLevel', async (params, ctx) => {
    const { level } = parse(z.object({ level: z.enum(LOG_LEVELS) }), params, 'logging/setLevel');
    if (ctx.session) await deps.sessions.update({ ...ctx.session, log_level: level });
    return {};
  });

  server.addMethod('health/check', (_params, ctx) =>
    deps.health({
      can_elicit: ctx.session?.can_elicit ?? false,
      ...(ctx.session?.client_info ?? {}),
      ...(ctx.session?.protocol_skew ? { protocol_skew: ctx.session.protocol_skew } : {}),
    }),
  );
}
