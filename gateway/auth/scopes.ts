import { annotationsOf, TOOL_CATALOGUE, type CatalogueEntry } from '../../contracts/tool-catalogue.ts';
import { principalHas, type OAuthScope, type Principal } from '../../contracts/principal.ts';

/** Methods any MCP scope allows (connection upkeep and listings filtered by scope). */
const ANY_SCOPE = new Set(['initialize', 'ping', 'logging/setLevel', 'health/check', 'tools/list', 'tool/list']);

const bareNames = new Map<string, CatalogueEntry | null>();
for (const e of TOOL_CATALOGUE.values()) {
  const bare = e.id.slice(e.adapter.length + 1);
  bareNames.set(bare, bareNames.has(bare) ? null : e);
}

/** The catalogue entry a tools/call name means: its canonical id, or a bare name only one adapter has. */
export function catalogueEntryOf(name: string): CatalogueEntry | undefined {
  return TOOL_CATALOGUE.get(name) ?? bareNames.get(name) ?? undefined;
}

/** The scope a tool's call needs: mcp:read for a read-only tool, mcp:write for any other or for one not catalogued. */
export function toolScope(name: string, twinMutations = false): OAuthScope {
  const e = catalogueEntryOf(name);
  return e && annotationsOf(e, twinMutations).readOnlyHint ? 'mcp:read' : 'mcp:write';
}

/** The scope a listed tool needs, from its listing's annotations. */
export const listedToolScope = (annotations: { readOnlyHint?: boolean } | undefined): OAuthScope =>
  annotations?.readOnlyHint === true ? 'mcp:read' : 'mcp:write';

/**
 * What one JSON-RPC message needs of a token (decision 0111): a tool call its tool's scope; connection upkeep and the
 * tool listings (filtered) any MCP scope; resources, prompts and completion mcp:read. Client responses and
 * notifications need any MCP scope. Answers the scopes of which the token must hold one.
 */
export function requiredScopes(message: unknown, twinMutations = false): OAuthScope[] {
  const m = (typeof message === 'object' && message !== null ? message : {}) as {
    method?: unknown;
    params?: { name?: unknown; tool_id?: unknown };
  };
  const method = typeof m.method === 'string' ? m.method : undefined;
  if (method === 'tools/call' || method === 'tool/call') {
    const name = method === 'tools/call' ? m.params?.name : m.params?.tool_id;
    return [toolScope(typeof name === 'string' ? name : '', twinMutations)];
  }
  if (method === undefined || ANY_SCOPE.has(method) || method.startsWith('notifications/'))
    return ['mcp:read', 'mcp:write'];
  return ['mcp:read'];
}

/** The first scope a principal lacks for these messages (all of them must pass), or undefined. */
export function missingScope(p: Principal, messages: unknown[], twinMutations = false): OAuthScope | undefined {
  for (const m of messages) {
    const needs = requiredScopes(m, twinMutations);
    if (!needs.some((s) => principalHas(p, s))) return needs[0];
  }
  return undefined;
}
