/** The new-run page's `revise` field read into the start request's keys (decision 0100). */
/**
 * The keys a person typed, comma-separated or one per line: trimmed, empty entries dropped, duplicates once, order
 * kept. No other check here: the server judges each key (422 naming an unknown one) so the rule lives in one place.
 */
export function parseReviseKeys(text: string): string[] {
  const keys = text
    .split(/[\s,;]+/)
    .map((k) => k.trim())
    .filter(Boolean);
  return [...new Set(keys)];
}
