import { JSONRPCErrorException, JSONRPCServer, type JSONRPCRequest, type JSONRPCResponse } from 'json-rpc-2.0';
import { JsonRpcCodes } from '../../contracts/errors.ts';
import { findNulOrDepth, type InputProblem } from '../../contracts/nul.ts';
import type { McpDeps, McpRequestContext } from './context.ts';
import { buildFeatures } from './features.ts';
import { addCompletionMethods } from './methods/completion.ts';
import { addLifecycleMethods } from './methods/lifecycle.ts';
import { addPromptMethods } from './methods/prompts.ts';
import { addResourceMethods } from './methods/resources.ts';
import { addToolMethods } from './methods/tools.ts';

/** Methods a client may call without a session: the legacy dialect, health, ping, `initialize` itself and harmless notifications. */
export const SESSIONLESS_METHODS = new Set([
  'initialize',
  'ping',
  'tool/list',
  'tool/call',
  'health/check',
  'notifications/initialized',
  'notifications/cancelled',
]);

export interface McpServer {
  /** Handles one request or notification; resolves to the response, or null for a notification. */
  handle(message: unknown, ctx: McpRequestContext): Promise<JSONRPCResponse | null>;
  hasMethod(name: string): boolean;
}

function invalidRequest(id: unknown, why: string): JSONRPCResponse {
  const okId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return {
    jsonrpc: '2.0',
    id: okId,
    error: { code: JsonRpcCodes.INVALID_REQUEST, message: `Invalid Request: ${why}` },
  };
}

/** -32602 for params holding a NUL character (PostgreSQL cannot store one) or nested past the limit, naming the field. */
function invalidParams(id: JSONRPCRequest['id'], p: InputProblem): JSONRPCResponse {
  return {
    jsonrpc: '2.0',
    id: id ?? null,
    error: {
      code: JsonRpcCodes.INVALID_PARAMS,
      message: `Invalid params: ${p.path} ${p.message}`,
      data: { validation_errors: [p] },
    },
  };
}

/** Checks the JSON-RPC 2.0 envelope strictly (json-rpc-2.0 does not check the method's type or the params' shape). */
export function envelopeProblem(msg: unknown): string | undefined {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'a request must be a JSON object';
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof m.method !== 'string' || !m.method) return 'method must be a non-empty string';
  if ('id' in m && m.id !== null && typeof m.id !== 'string' && typeof m.id !== 'number')
    return 'id must be a string or a number';
  if ('params' in m && m.params !== undefined && (typeof m.params !== 'object' || m.params === null))
    return 'params must be an object or an array';
  return undefined;
}

/**
 * The tool server's JSON-RPC core (json-rpc-2.0), shared by HTTP, SSE and stdio. Unknown methods are -32601, a bad
 * envelope -32600, params with a NUL character anywhere (tool arguments, a resource uri) -32602 naming the field before
 * any method runs; an unexpected failure is logged and answered -32603 without its internals.
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new JSONRPCServer<McpRequestContext>({
    errorListener: (message, data) => deps.log.debug({ err: data }, message),
  });
  server.mapErrorToJSONRPCErrorResponse = (id, error) => {
    if (error instanceof JSONRPCErrorException) {
      return {
        jsonrpc: '2.0',
        id,
        error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) },
      };
    }
    deps.log.error({ err: error }, 'mcp method failed');
    return { jsonrpc: '2.0', id, error: { code: JsonRpcCodes.INTERNAL_ERROR, message: 'Internal error' } };
  };
  addLifecycleMethods(server, deps);
  addToolMethods(server, deps);
  const features = buildFeatures(deps);
  addResourceMethods(server, deps, features);
  addPromptMethods(server, features);
  addCompletionMethods(server, features);

  return {
    hasMethod: (name) => server.hasMethod(name),
    async handle(message, ctx) {
      const problem = envelopeProblem(message);
      if (problem) return invalidRequest((message as { id?: unknown } | null)?.id, problem);
      const req = message as JSONRPCRequest;
      const hostile = findNulOrDepth(req.params, 'params');
      if (hostile && req.id !== undefined) return invalidParams(req.id, hostile);
      if (hostile) return null; // a notification gets no answer, and is not acted on
      ctx.requestId = req.id ?? undefined;
      const res = await server.receive(req, ctx);
      return res;
    },
  };
}
