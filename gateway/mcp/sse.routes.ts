import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { JsonRpcCodes } from '../../contracts/errors.ts';
import type { McpRequestContext } from './context.ts';
import type { McpHttpDeps } from './http.routes.ts';
import { outboundOver, type WireMessage } from './outbound.ts';
import { SseWriter } from './sse.ts';

/** Legacy HTTP+SSE sessions held by this node: key -> the GET stream and the MCP session it initialized. */
/** Legacy streams by key; `subject`: the token subject that opened it (decision 0112), unset for the key or open mode. */
const legacyStreams = new Map<
  string,
  { writer: SseWriter; sessionId?: string; detach?: () => void; subject?: string }
>();

/**
 * The SSE transport (SPEC "Tool server wire endpoints"): `GET /mcp/sse?request=<url-encoded JSON-RPC>` answers with
 * `event: response` blocks (notifications before them as `event: notification`) and one final `event: done`.
 * Without `request`, the same path serves the 2024-11-05 HTTP+SSE transport of SDK clients: an `endpoint` event
 * naming `/mcp/sse/messages?session_id=...`, POSTs there acknowledged 202, replies as `event: message`.
 */
export function mcpSseRoutes(deps: McpHttpDeps) {
  return async function routes(app: FastifyInstance) {
    app.get('/mcp/sse', async (req, reply) => {
      const raw = (req.query as { request?: string }).request;
      reply.hijack();
      const writer = new SseWriter(reply.raw);
      writer.start();
      if (raw === undefined) {
        const key = crypto.randomUUID();
        legacyStreams.set(key, { writer, subject: req.principal?.subject });
        reply.raw.once('close', () => {
          legacyStreams.get(key)?.detach?.();
          legacyStreams.delete(key);
        });
        writer.send(`/mcp/sse/messages?session_id=${key}`, 'endpoint');
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch (err) {
        writer.send(
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: JsonRpcCodes.PARSE_ERROR, message: `Parse error: ${(err as Error).message}` },
          },
          'response',
        );
        writer.send({}, 'done');
        return writer.end();
      }
      const out = outboundOver(
        (msg: WireMessage) => writer.send(msg, 'method' in msg ? 'notification' : 'response'),
        deps.pending,
      );
      const batch = Array.isArray(message) ? message : [message];
      if (batch.length === 0) {
        writer.send(
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: JsonRpcCodes.INVALID_REQUEST, message: 'Invalid Request: empty batch' },
          },
          'response',
        );
      }
      const sessionKey = `sse:${crypto.randomUUID()}`;
      for (const m of batch) {
        const res = await deps.server.handle(m, {
          sessionKey,
          transport: 'sse',
          out,
          profile: (req.query as { profile?: string }).profile,
          principal: req.principal,
        });
        if (res) writer.send(res, 'response');
      }
      writer.send({}, 'done');
      writer.end();
    });

    app.post('/mcp/sse/messages', async (req, reply) => {
      const key = (req.query as { session_id?: string }).session_id ?? '';
      const legacy = legacyStreams.get(key);
      if (!legacy || legacy.writer.closed || legacy.subject !== req.principal?.subject) {
        return reply.code(404).send({
          jsonrpc: '2.0',
          id: null,
          error: { code: JsonRpcCodes.INVALID_REQUEST, message: 'unknown or closed SSE session' },
        });
      }
      let message: unknown;
      try {
        message = JSON.parse(String(req.body ?? ''));
      } catch (err) {
        legacy.writer.send(
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: JsonRpcCodes.PARSE_ERROR, message: `Parse error: ${(err as Error).message}` },
          },
          'message',
        );
        return reply.code(202).send();
      }
      if (typeof message === 'object' && message !== null && !('method' in message)) {
        deps.pending.settle(message as { id?: unknown });
        return reply.code(202).send();
      }
      reply.code(202).send();
      const session = legacy.sessionId ? await deps.sessions.get(legacy.sessionId) : undefined;
      const out = outboundOver((msg) => legacy.writer.send(msg, 'message'), deps.pending);
      const ctx: McpRequestContext = {
        session,
        sessionKey: session?.id ?? key,
        transport: 'sse',
        out,
        profile: (req.query as { profile?: string }).profile,
        principal: req.principal,
      };
      const res = await deps.server.handle(message, ctx);
      if (ctx.newSession) {
        legacy.sessionId = ctx.newSession.id;
        // Resource notifications reach the session on its event stream.
        legacy.detach?.();
        legacy.detach = deps.updates.attach(ctx.newSession.id, (method, params) =>
          legacy.writer.send({ jsonrpc: '2.0', method, params }, 'message'),
        );
      }
      if (res) legacy.writer.send(res, 'message');
    });
  };
}
