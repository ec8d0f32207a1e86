import { call, type Caller } from '../../../brokers/actions.ts';
import { KnowledgeActions } from '../../../contracts/actions/knowledge.actions.ts';
import type { KnowledgeSource } from '../../../contracts/knowledge.ts';
import type { McpResource } from '../../../contracts/mcp-features.ts';
import type { CandidateSources } from '../candidates.ts';
import { jsonContents, notFound, readFailure, type ResourceProvider } from './provider.ts';
import { Uris } from './uris.ts';

/** The sources list resource itself (SPEC Endpoints: `service://knowledge/sources`). */
const INDEX: McpResource = {
  uri: Uris.sources.template,
  name: 'knowledge-sources',
  title: 'Knowledge sources',
  description: 'Every ingested source, newest first (subscribe to hear of new ones)',
  mimeType: 'application/json',
};

function entryOf(s: KnowledgeSource): McpResource | undefined {
  const uri = Uris.source.expand({ source_id: s.id });
  return uri ? { uri, name: s.title, description: s.uri ?? undefined, mimeType: 'text/plain' } : undefined;
}

/**
 * Knowledge sources as resources: the list (JSON) and each source's text, read from the knowledge actor. Sources are
 * immutable (new text is a new source), so only the list changes.
 */
export function knowledgeProvider(bus: Caller, candidates: CandidateSources): ResourceProvider {
  return {
    name: 'knowledge',
    templates: [
      {
        uri: Uris.source,
        uriTemplate: Uris.source.template,
        name: 'knowledge-source',
        title: 'One knowledge source',
        description: 'The full text of an ingested source',
        mimeType: 'text/plain',
        complete: async (variable) => (variable === 'source_id' ? candidates.sources() : []),
      },
    ],

    async list(offset, limit) {
      const resources: McpResource[] = offset === 0 ? [INDEX] : [];
      const start = Math.max(0, offset - 1);
      const want = limit - resources.length;
      if (want <= 0) return { resources, next: 1 };
      const { sources, total } = await call(bus, KnowledgeActions.listSources, { limit: want, offset: start });
      for (const s of sources) {
        const e = entryOf(s);
        if (e) resources.push(e);
      }
      const done = start + sources.length;
      return { resources, next: done < total && sources.length ? done + 1 : undefined };
    },

    owns: (uri) => uri === Uris.sources.template || uri.startsWith(`${Uris.sources.template}/`),

    async read(uri) {
      if (Uris.sources.match(uri)) {
        return jsonContents(uri, await call(bus, KnowledgeActions.listSources, { limit: 1000, offset: 0 }));
      }
      const v = Uris.source.match(uri);
      if (!v) throw notFound(uri);
      const source = await call(bus, KnowledgeActions.getSource, { id: v.source_id });
      return [{ uri, mimeType: 'text/plain', text: source.text }];
    },

    async check(uri) {
      await this.read(uri);
    },
  };
}
