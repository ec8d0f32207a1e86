import type { JSONRPCServer } from 'json-rpc-2.0';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { KnowledgeActions } from '../../../contracts/actions/knowledge.actions.ts';
import type { McpDeps, McpRequestContext } from '../context.ts';
import { rpcError } from '../errors.ts';

/** The list of ingested knowledge sources, as one JSON resource (SPEC Endpoints: `service://knowledge/sources`). */
export const SOURCES_URI = 'service://knowledge/sources';
const SOURCE_PREFIX = `${SOURCES_URI}/`;

/**
 * `resources/list` and `resources/read`: the knowledge sources list, and each source's text at
 * `service://knowledge/sources/<id>`. An unknown URI is -32002; a source that exists but cannot be read is -32005.
 */
export function addResourceMethods(server: JSONRPCServer<McpRequestContext>, deps: McpDeps): void {
  server.addMethod('resources/list', async () => {
    const { sources } = await call(deps.bus, KnowledgeActions.listSources, { limit: 200, offset: 0 });
    return {
      resources: [
        {
          uri: SOURCES_URI,
          name: 'knowledge-sources',
          title: 'Knowledge sources',
          description: 'Every ingested source, newest first',
          mimeType: 'application/json',
        },
        ...sources.map((s) => ({
          uri: `${SOURCE_PREFIX}${s.id}`,
          name: s.title,
          description: s.uri ?? undefined,
          mimeType: 'text/plain',
        })),
      ],
    };
  });

  server.addMethod('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: `${SOURCE_PREFIX}{id}`,
        name: 'knowledge-source',
        title: 'One knowledge source',
        mimeType: 'text/plain',
      },
    ],
  }));

  server.addMethod('resources/read', async (params) => {
    const p = z.object({ uri: z.string().min(1) }).safeParse(params);
    if (!p.success) throw rpcError('INVALID_PARAMS', 'resources/read needs a uri');
    const { uri } = p.data;
    if (uri === SOURCES_URI) {
      const list = await call(deps.bus, KnowledgeActions.listSources, { limit: 1000, offset: 0 });
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(list) }] };
    }
    if (!uri.startsWith(SOURCE_PREFIX)) throw rpcError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });
    try {
      const source = await call(deps.bus, KnowledgeActions.getSource, { id: uri.slice(SOURCE_PREFIX.length) });
      return { contents: [{ uri, mimeType: 'text/plain', text: source.text }] };
    } catch (err) {
      if (err instanceof ActorError && err.type === 'NOT_FOUND')
        throw rpcError('RESOURCE_NOT_FOUND', `Resource not found: ${uri}`, { uri });
      throw rpcError('RESOURCE_READ_ERROR', `Resource ${uri} could not be read: ${(err as Error).message}`, { uri });
    }
  });
}
