import type { ServiceSchema } from 'moleculer';
import type { Infra } from '../../../brokers/infra.ts';
import { createAdapterService } from '../kit/adapter.service.ts';
import { defineTool } from '../kit/tool.ts';
import { fetchUrl } from './fetch.ts';
import { searchWeb } from './search.ts';
import {
  WebFetchInputSchema,
  WebFetchResultSchema,
  WebSearchInputSchema,
  WebSearchResultSchema,
} from './web.schemas.ts';

/** The web tools; `search` reads its endpoint from `SERVICE_WEB_SEARCH_URL`. */
function webTools(searchUrl: string | undefined) {
  return [
    defineTool({
      name: 'search',
      title: 'Search the web',
      description:
        'Search the web through the configured SearxNG-compatible endpoint (SERVICE_WEB_SEARCH_URL). Returns up to limit ' +
        '(default 10, max 50) results {title, url, snippet}. Fails naming the setting when no endpoint is configured.',
      input: WebSearchInputSchema,
      output: WebSearchResultSchema,
      handler: (args, tc) => searchWeb(searchUrl, args, tc),
    }),
    defineTool({
      name: 'fetch',
      title: 'Fetch a web page or file',
      description:
        'GET an http or https URL (redirects followed). Keeps at most max_bytes (default 2,000,000, max 20,000,000; ' +
        'truncated: true when cut) within timeout_seconds (default 20, max 120). Textual bodies come back as text (HTML: ' +
        'readable text plus the markup in html and the title), others as base64. An unreachable host is an error saying why.',
      input: WebFetchInputSchema,
      output: WebFetchResultSchema,
      handler: (args, tc) => fetchUrl(args, tc),
    }),
  ];
}

/** The `web` adapter (no actor of its own): `search` and `fetch` over HTTP. Degraded while search is not configured. */
export function createWebAdapter(infra: Infra): ServiceSchema {
  const searchUrl = infra.config.SERVICE_WEB_SEARCH_URL;
  return createAdapterService({
    id: 'web',
    version: '0.1.0',
    capability: 'web',
    tools: webTools(searchUrl),
    checkEngine: async () =>
      searchUrl
        ? { status: 'healthy' }
        : { status: 'degraded', message: 'SERVICE_WEB_SEARCH_URL is not set: web.search cannot run' },
  })(infra);
}
