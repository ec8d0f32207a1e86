/**
 * Tool id resolution (SPEC "Tool id aliases", Versioning 6): the canonical form is `<adapter_id>.<method_name>`;
 * separator mistakes (`twin_get_node`, `twin/get_node`, `twin:get_node`, `twin__get_node`) resolve; an alias that
 * matches two tools is refused; an unknown id gets close matches. Pure functions.
 */
export type Resolution =
  | { kind: 'found'; id: string; alias: boolean }
  | { kind: 'ambiguous'; matches: string[] }
  | { kind: 'unknown'; didYouMean: string[] };

const SEPARATORS = /[._/:\-]+/g;

/** The alias key of a tool id: lower case, every separator run folded to one `_`. */
export function aliasKey(name: string): string {
  return name.trim().toLowerCase().replace(SEPARATORS, '_');
}

/** Builds the alias index once per registry change. */
export function buildAliasIndex(ids: Iterable<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const id of ids) {
    const key = aliasKey(id);
    const list = index.get(key) ?? [];
    list.push(id);
    index.set(key, list);
  }
  return index;
}

export function resolveToolId(name: string, ids: ReadonlySet<string>, index: Map<string, string[]>): Resolution {
  if (ids.has(name)) return { kind: 'found', id: name, alias: false };
  const matches = index.get(aliasKey(name)) ?? [];
  if (matches.length === 1) return { kind: 'found', id: matches[0], alias: true };
  if (matches.length > 1) return { kind: 'ambiguous', matches: [...matches].sort() };
  return { kind: 'unknown', didYouMean: suggest(name, [...ids]) };
}

/** Levenshtein distance, bounded: stops early once every cell exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return best;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Close matches for an unknown name, best first, at most 5: ids whose method name equals the name (`get_node` ->
 * `twin.get_node`), then ids within a small edit distance of the whole name (a fifth of its length, at least 1),
 * or, for a bare method name, of the method part.
 */
export function suggest(name: string, ids: string[], limit = 5): string[] {
  const key = aliasKey(name);
  const bare = !key.includes('_') || !ids.some((id) => key.startsWith(`${aliasKey(id.split('.')[0])}_`));
  const scored: { id: string; score: number }[] = [];
  for (const id of ids) {
    const idKey = aliasKey(id);
    const method = aliasKey(id.slice(id.indexOf('.') + 1));
    if (method === key) {
      scored.push({ id, score: 0 });
      continue;
    }
    const maxWhole = Math.max(1, Math.floor(idKey.length / 5));
    const whole = editDistance(key, idKey, maxWhole);
    const maxMethod = Math.max(1, Math.floor(method.length / 3));
    const part = bare ? editDistance(key, method, maxMethod) : Infinity;
    if (whole <= maxWhole) scored.push({ id, score: whole + 1 });
    else if (part <= maxMethod) scored.push({ id, score: part + 1 });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((s) => s.id);
}
