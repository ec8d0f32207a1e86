import type { JSONRPCServer } from 'json-rpc-2.0';
import { McpCursorParamsSchema, McpUriParamsSchema } from '../../../contracts/mcp-features.ts';
import type { McpDeps, McpRequestContext } from '../context.ts';
import { rpcError } from '../errors.ts';
import type { McpFeatures } from '../features.ts';
import { parseParams } from '../params.ts';
import { listPage } from '../resources/provider.ts';

/** Entries per `resources/list` page. */
export const RESOURCE_PAGE_SIZE = 100;

/** The session a subscription belongs to; subscriptions need one (they end with it). */
function sessionOf(ctx: McpRequestContext, method: string) {
  if (!ctx.session)
    throw rpcError('INVALID_REQUEST', `${method} needs a session: call initialize first (subscriptions end with it)`);
  return ctx.session;
}

/**
 * `resources/list` (paged, opaque cursor), `resources/templates/list`, `resources/read` (-32002 with the URI for an
 * unknown one, -32005 for one that cannot be read), `resources/subscribe` (the resource must exist) and
 * `resources/unsubscribe`. Subscriptions belong to the MCP session and end with it (README "MCP resources").
 */
export function addResourceMethods(
  server: JSONRPCServer<McpRequestContext>,
  deps: McpDeps,
  features: McpFeatures,
): void {
  server.addMethod('resources/list', async (params) => {
    const { cursor } = parseParams(McpCursorParamsSchema, params, 'resources/list');
    return listPage(features.resources, cursor, RESOURCE_PAGE_SIZE);
  });

  server.addMethod('resources/templates/list', (params) => {
    parseParams(McpCursorParamsSchema, params, 'resources/templates/list');
    return {
      resourceTemplates: features.resources.flatMap((p) => p.templates.map(({ uri: _u, complete: _c, ...t }) => t)),
    };
  });

  server.addMethod('resources/read', async (params) => {
    const { uri } = parseParams(McpUriParamsSchema, params, 'resources/read');
    return { contents: await features.read(uri) };
  });

  server.addMethod('resources/subscribe', async (params, ctx) => {
    const { uri } = parseParams(McpUriParamsSchema, params, 'resources/subscribe');
    const session = sessionOf(ctx, 'resources/subscribe');
    await features.check(uri);
    if (!(await deps.sessions.subscribe(session.id, uri)))
      throw rpcError('INVALID_REQUEST', `resources/subscribe: the session ended or holds too many subscriptions`, {
        uri,
      });
    return {};
  });

  server.addMethod('resources/unsubscribe', async (params, ctx) => {
    const { uri } = parseParams(McpUriParamsSchema, params, 'resources/unsubscribe');
    await deps.sessions.unsubscribe(sessionOf(ctx, 'resources/unsubscribe').id, uri);
    return {};
  });
}
