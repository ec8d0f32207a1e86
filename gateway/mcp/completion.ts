import { MAX_COMPLETION_VALUES, type McpCompletion } from '../../contracts/mcp-features.ts';

/** A value completion may offer, with a label (a name or title) the typed text may also match. */
export interface Candidate {
  value: string;
  label?: string;
}

/**
 * The completion answer for what the user typed: values that start with it first (case-insensitive), then values or
 * labels that contain it, each group in the source's order, duplicates once; at most 100 values, `total` counting every
 * match and `hasMore` when some were left out (MCP "Completion").
 */
export function rankCompletions(candidates: readonly Candidate[], typed: string): McpCompletion {
  const t = typed.toLowerCase();
  const starts: string[] = [];
  const contains: string[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c.value)) continue;
    const v = c.value.toLowerCase();
    if (v.startsWith(t)) starts.push(c.value);
    else if (t && (v.includes(t) || c.label?.toLowerCase().includes(t))) contains.push(c.value);
    else continue;
    seen.add(c.value);
  }
  const all = [...starts, ...contains];
  const values = all.slice(0, MAX_COMPLETION_VALUES);
  return { values, total: all.length, hasMore: all.length > values.length };
}

/** Nothing to offer (an argument with no known values, such as free text). */
export const NO_COMPLETION: McpCompletion = { values: [], total: 0, hasMore: false };
