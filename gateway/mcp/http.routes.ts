import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JSONRPCResponse } from 'json-rpc-2.0';
import { JsonRpcCodes } from '../../contracts/errors.ts';
import type { McpDeps, McpRequestContext } from './context.ts';
import { PostReply, type StandaloneStreams } from './streams.ts';
import { SseWriter } from './sse.ts';
import { SESSIONLESS_METHODS, type McpServer } from './server.ts';
import { DEFAULT_HEADER_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.ts';
import type { McpSession } from './session-store.ts';

export interface McpHttpDeps extends McpDeps {
  server: McpServer;
  streams: StandaloneStreams;
}

const rpcErrorBody = (id: unknown, code: number, message: string) => ({
  jsonrpc: '2.0' as const,
  id: typeof id === 'string' || typeof id === 'number' ? id : null,
  error: { code, message },
});

const isResponse = (m: unknown): m is { id: unknown; result?: unknown; error?: { message?: string; code?: number } } =>
  typeof m === 'object' && m !== null && !('method' in m) && ('result' in m || 'error' in m);

const acceptsSse = (req: FastifyRequest) => /text\/event-stream|\*\/\*/.test(String(req.headers.accept ?? ''));

/** Resolves the session a request names: none needed, found, or the transport's 400/404. */
async function sessionFor(req: FastifyRequest, deps: McpHttpDeps, method: string | undefined) {
  const id = req.headers['mcp-session-id'];
  if (typeof id === 'string' && id) {
    const session = await deps.sessions.get(id);
    // A session belongs to the principal that opened it (decision 0112): another token's subject does not find it.
    if (!session || session.principal?.subject !== req.principal?.subject)
      return { status: 404, message: `Session not found: ${id}` };
    return { session };
  }
  if (method === undefined || SESSIONLESS_METHODS.has(method) || !deps.server.hasMethod(method)) return {};
  return { status: 400, message: 'Bad Request: this method needs the Mcp-Session-Id header from initialize' };
}

/**
 * Streamable HTTP on `/mcp` (SPEC "Tool server wire endpoints"; notes/mcp-clients.md server requirements):
 * POST a request (JSON, or SSE when it must carry server messages), a notification or a client response (202);
 * GET the session's long-lived SSE stream; DELETE ends the session (later use: 404).
 */
export function mcpHttpRoutes(deps: McpHttpDeps) {
  return async function routes(app: FastifyInstance) {
    app.post('/mcp', async (req, reply) => {
      const version = req.headers['mcp-protocol-version'];
      if (typeof version === 'string' && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
        return reply
          .code(400)
          .send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, `Unsupported protocol version: ${version}`));
      }
      let message: unknown;
      try {
        message = JSON.parse(String(req.body ?? ''));
      } catch (err) {
        return reply
          .code(400)
          .send(rpcErrorBody(null, JsonRpcCodes.PARSE_ERROR, `Parse error: ${(err as Error).message}`));
      }
      if (Array.isArray(message)) return handleBatch(req, reply, message);
      if (isResponse(message)) {
        if (!deps.pending.settle(message))
          deps.log.info({ id: message.id }, 'client response ignored: no request waits for it (late or withdrawn)');
        return reply.code(202).send();
      }
      const method = (message as { method?: unknown })?.method;
      const found = await sessionFor(req, deps, typeof method === 'string' ? method : undefined);
      if ('status' in found)
        return reply
          .code(found.status!)
          .send(rpcErrorBody((message as { id?: unknown })?.id, JsonRpcCodes.INVALID_REQUEST, found.message!));
      const session = found.session;
      const headers: Record<string, string> = session ? { 'mcp-session-id': session.id } : {};
      const post = new PostReply(reply, {
        acceptsSse: acceptsSse(req),
        headers,
        pending: deps.pending,
        fallback: deps.streams.outbound(session?.id, deps.pending),
      });
      const ctx = context(req, session, post);
      const isNotification = typeof message === 'object' && message !== null && !('id' in message);
      const response = await deps.server.handle(message, ctx);
      if (ctx.newSession) headers['mcp-session-id'] = ctx.newSession.id;
      if (isNotification && response === null) return reply.code(202).headers(headers).send();
      return post.finish(response, headers);
    });

    app.get('/mcp', async (req, reply) => {
      const found = await sessionFor(req, deps, 'GET');
      if ('status' in found)
        return reply.code(found.status!).send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, found.message!));
      if (!found.session)
        return reply
          .code(400)
          .send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, 'Bad Request: Mcp-Session-Id header required'));
      if (!acceptsSse(req)) {
        return reply
          .code(405)
          .header('allow', 'POST, DELETE')
          .send(
            rpcErrorBody(
              null,
              JsonRpcCodes.INVALID_REQUEST,
              'Method Not Allowed: GET /mcp needs Accept: text/event-stream',
            ),
          );
      }
      const session = found.session;
      reply.hijack();
      const writer = new SseWriter(reply.raw, { 'mcp-session-id': session.id });
      writer.start();
      writer.comment('stream open');
      deps.streams.open(session.id, writer);
      // Resource notifications (subscriptions, list changes) reach the session on this stream while it is open.
      const detach = deps.updates.attach(session.id, (method, params) =>
        writer.send({ jsonrpc: '2.0', method, params }),
      );
      reply.raw.once('close', () => {
        detach();
        deps.streams.close(session.id, writer);
      });
    });

    app.delete('/mcp', async (req, reply) => {
      const id = req.headers['mcp-session-id'];
      if (typeof id !== 'string' || !id)
        return reply
          .code(400)
          .send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, 'Bad Request: Mcp-Session-Id header required'));
      if (!(await deps.sessions.delete(id)))
        return reply.code(404).send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, `Session not found: ${id}`));
      deps.streams.close(id);
      return reply.code(204).send();
    });

    /** A JSON-RPC 2.0 batch: answered with the array of responses (notifications and client responses get none). */
    async function handleBatch(req: FastifyRequest, reply: FastifyReply, batch: unknown[]) {
      if (batch.length === 0)
        return reply.code(400).send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, 'Invalid Request: empty batch'));
      const methods = batch.map((m) => (m as { method?: unknown })?.method);
      if (methods.includes('initialize')) {
        return reply
          .code(400)
          .send(
            rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, 'Invalid Request: initialize cannot be part of a batch'),
          );
      }
      const needy = methods.find(
        (m) => typeof m === 'string' && !SESSIONLESS_METHODS.has(m) && deps.server.hasMethod(m),
      );
      const found = await sessionFor(req, deps, typeof needy === 'string' ? needy : undefined);
      if ('status' in found)
        return reply.code(found.status!).send(rpcErrorBody(null, JsonRpcCodes.INVALID_REQUEST, found.message!));
      const out = deps.streams.outbound(found.session?.id, deps.pending);
      const responses = await Promise.all(
        batch.map((m) => {
          if (isResponse(m)) {
            deps.pending.settle(m);
            return null;
          }
          return deps.server.handle(m, context(req, found.session, out));
        }),
      );
      const answered = responses.filter((r): r is JSONRPCResponse => r !== null);
      const headers = found.session ? { 'mcp-session-id': found.session.id } : {};
      if (!answered.length) return reply.code(202).headers(headers).send();
      return reply.code(200).headers(headers).type('application/json').send(JSON.stringify(answered));
    }
  };

  function context(
    req: FastifyRequest,
    session: McpSession | undefined,
    out: McpRequestContext['out'],
  ): McpRequestContext {
    const profile = (req.query as { profile?: string }).profile;
    return {
      session,
      sessionKey: session?.id ?? `anon:${crypto.randomUUID()}`,
      transport: 'http',
      profile,
      out,
      principal: req.principal,
    };
  }
}

export { DEFAULT_HEADER_PROTOCOL_VERSION };
