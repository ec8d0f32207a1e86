import { ToolError, type ToolContext } from '../kit/tool.ts';
import { USER_AGENT } from './fetch.ts';
import { unreachable } from './net-errors.ts';
import { SearxResponseSchema, type WebSearchInput, type WebSearchResult } from './web.schemas.ts';

/** How long the search endpoint may take to answer. */
export const SEARCH_TIMEOUT_SECONDS = 20;

/**
 * `web.search` against the configured SearxNG-compatible endpoint: GET `<url>?q=<query>&format=json`, results
 * `{title, url, content}`. Unset endpoint, unreachable endpoint, error status or a body of another shape are
 * ToolErrors; the first names `SERVICE_WEB_SEARCH_URL` so the person can fix the configuration.
 */
export async function searchWeb(
  endpoint: string | undefined,
  args: WebSearchInput,
  tc: ToolContext,
): Promise<WebSearchResult> {
  if (!endpoint) {
    throw new ToolError(
      'web search is not configured: set SERVICE_WEB_SEARCH_URL to a SearxNG-compatible JSON search endpoint (GET <url>?q=<query>&format=json)',
      { setting: 'SERVICE_WEB_SEARCH_URL' },
    );
  }
  const url = new URL(endpoint);
  url.searchParams.set('q', args.query);
  url.searchParams.set('format', 'json');
  const signal = AbortSignal.any([tc.signal, AbortSignal.timeout(SEARCH_TIMEOUT_SECONDS * 1000)]);
  let body: unknown;
  let status: number;
  try {
    const res = await fetch(url, { signal, headers: { accept: 'application/json', 'user-agent': USER_AGENT } });
    status = res.status;
    const text = await res.text();
    if (!res.ok)
      throw new ToolError(`the search endpoint ${url.host} answered HTTP ${status}`, {
        status,
        body: text.slice(0, 500),
      });
    try {
      body = JSON.parse(text);
    } catch {
      throw new ToolError(`the search endpoint ${url.host} did not answer JSON (is format=json enabled?)`, {
        status,
        body: text.slice(0, 500),
      });
    }
  } catch (err) {
    if (err instanceof ToolError || tc.signal.aborted) throw err;
    throw unreachable(url, err, SEARCH_TIMEOUT_SECONDS);
  }
  const parsed = SearxResponseSchema.safeParse(body);
  if (!parsed.success)
    throw new ToolError(`the search endpoint ${url.host} answered JSON without a results list`, { status });
  const results = parsed.data.results
    .slice(0, args.limit)
    .map((r) => ({ title: r.title ?? r.url, url: r.url, snippet: r.content ?? '' }));
  return { query: args.query, results };
}
