import { JSONRPCErrorException } from 'json-rpc-2.0';
import { z } from 'zod';
import { ActorError } from '../../../brokers/errors.ts';
import type { McpResource, McpResourceContents, McpResourceTemplate } from '../../../contracts/mcp-features.ts';
import type { Candidate } from '../completion.ts';
import { rpcError } from '../errors.ts';
import type { UriTemplate } from './uris.ts';

/** A template a provider serves, with how to complete each of its variables from real data. */
export interface ServedTemplate extends McpResourceTemplate {
  readonly uri: UriTemplate;
  /** Candidate values of `variable`, given the values already chosen for the template's other variables. */
  complete?(variable: string, context: Record<string, string>): Promise<Candidate[]>;
}

/**
 * One family of resources (knowledge sources, a project's twin work, the conformance fixtures). `owns` says whether
 * a URI is of its family; for one it owns, `read` answers the contents or throws -32002 (unknown) / -32005 (unreadable)
 * and `check` proves it exists without reading file bytes (subscribe).
 */
export interface ResourceProvider {
  /** Names the family in `_meta.unavailable` of a listing it could not contribute to. */
  readonly name: string;
  readonly templates: readonly ServedTemplate[];
  /** A page of its concrete resources from `offset`; `next` is the offset to continue from, when more follow. */
  list(offset: number, limit: number): Promise<{ resources: McpResource[]; next?: number }>;
  owns(uri: string): boolean;
  read(uri: string): Promise<McpResourceContents[]>;
  check(uri: string): Promise<void>;
}

/** MCP "Error handling" of resources: -32002 with the URI in data. */
export const notFound = (uri: string): JSONRPCErrorException =>
  rpcError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });

/**
 * Maps a failed actor call behind a resource: an unknown id or a reference the twin refuses is -32002 (the same answer
 * as for an URI of no resource, so another project's ids are not revealed); anything else -32005 naming the URI.
 */
export function readFailure(uri: string, err: unknown): JSONRPCErrorException {
  if (err instanceof ActorError && (err.type === 'NOT_FOUND' || err.type === 'VALIDATION_FAILED')) return notFound(uri);
  if (err instanceof JSONRPCErrorException) return err;
  return rpcError('RESOURCE_READ_ERROR', `Resource ${uri} could not be read: ${(err as Error).message}`, { uri });
}

/** JSON contents of one resource. */
export const jsonContents = (uri: string, value: unknown): McpResourceContents[] => [
  { uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) },
];

const CursorSchema = z.object({ p: z.number().int().min(0), o: z.number().int().min(0) });

/** The opaque `nextCursor`: which provider, and where in its list. */
const encodeCursor = (p: number, o: number) => Buffer.from(JSON.stringify({ p, o })).toString('base64url');

function decodeCursor(cursor: string | undefined): { p: number; o: number } {
  if (cursor === undefined) return { p: 0, o: 0 };
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw rpcError('INVALID_PARAMS', 'invalid cursor: pass back a nextCursor this server gave', { cursor });
  }
}

/**
 * One page of `resources/list` over the providers in order, at most `pageSize` entries; `nextCursor` when more follow
 * (MCP pagination: the cursor is opaque and only valid as given). A provider whose actor cannot answer (down, timed
 * out) contributes nothing and is named in `_meta.unavailable` with the reason, so the rest still lists (as
 * `tools/list` reports unavailable adapters).
 */
export async function listPage(
  providers: readonly ResourceProvider[],
  cursor: string | undefined,
  pageSize: number,
): Promise<{ resources: McpResource[]; nextCursor?: string; _meta?: { unavailable: Record<string, string> } }> {
  let { p, o } = decodeCursor(cursor);
  const resources: McpResource[] = [];
  const unavailable: Record<string, string> = {};
  const done = (nextCursor?: string) => ({
    resources,
    ...(nextCursor ? { nextCursor } : {}),
    ...(Object.keys(unavailable).length ? { _meta: { unavailable } } : {}),
  });
  while (p < providers.length && resources.length < pageSize) {
    let page: Awaited<ReturnType<ResourceProvider['list']>>;
    try {
      page = await providers[p].list(o, pageSize - resources.length);
    } catch (err) {
      unavailable[providers[p].name] = (err as Error).message;
      page = { resources: [] };
    }
    resources.push(...page.resources);
    if (page.next !== undefined && page.next > o) {
      o = page.next;
      if (resources.length >= pageSize) return done(encodeCursor(p, o));
    } else {
      p += 1;
      o = 0;
    }
  }
  return done(p < providers.length ? encodeCursor(p, o) : undefined);
}
