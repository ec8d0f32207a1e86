import type { AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import type { NativeTool } from './offer.ts';

export const SEARCH_TOOLS_ID = 'search_tools';

/** The harness's own tool: find registry tools by words; what it finds is pinned, kept in the offer under the cap. */
export const SEARCH_TOOLS: NativeTool = {
  id: SEARCH_TOOLS_ID,
  description:
    'Search the tool catalogue by words (what you want to do, an adapter or a verb). Tools found are offered from ' +
    'the next step on, even when the request could not carry every tool.',
  input_schema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 200 },
      limit: { type: 'integer', minimum: 1, maximum: 25, default: 10 },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);

/** Tools of the listing ranked by how many query words their id, title and description hold (the id counts double). */
export function searchTools(listed: readonly AnnouncedTool[], query: string, limit: number): AnnouncedTool[] {
  const asked = [...new Set(words(query))];
  const scored = listed.map((t) => {
    const id = new Set(words(t.tool_id));
    const text = new Set(words(`${t.title ?? ''} ${t.description}`));
    const score = asked.reduce((n, w) => n + (id.has(w) ? 2 : 0) + (text.has(w) ? 1 : 0), 0);
    return { t, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.t.tool_id.localeCompare(b.t.tool_id))
    .slice(0, limit)
    .map((s) => s.t);
}

/** Runs search_tools: answers the matches and pins them with `pin`. */
export function runSearchTools(
  listed: readonly AnnouncedTool[],
  args: Record<string, unknown>,
  pin: (ids: string[]) => void,
): ToolResult {
  const found = searchTools(listed, String(args.query), typeof args.limit === 'number' ? args.limit : 10);
  pin(found.map((t) => t.tool_id));
  return {
    status: 'success',
    tool_id: SEARCH_TOOLS_ID,
    data: { tools: found.map((t) => ({ tool_id: t.tool_id, title: t.title ?? null, description: t.description })) },
    output_files: [],
    duration_ms: 0,
  };
}
