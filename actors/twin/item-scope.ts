/**
 * Which item a definition write names (decision 0100, issue 28 point 1: a run's items are its own). Pure: the caller
 * reads the candidates and the run's `revise` list, these functions decide.
 *
 * - A run's write that names an item by name resolves among that run's own items, the items its start request listed
 *   in `revise`, and the items no run owns (a person's), in that order; another run's item of the same name is never
 *   touched: the run creates its own.
 * - A run's write that names an item by key (or by the node it supersedes) may revise another run's item only when the
 *   run's request listed that key; otherwise it is refused and nothing is written.
 * - Outside a run (a person, an agent, a design change) a name naming exactly one item revises it; naming several
 *   (two runs each own one) prefers the one no run owns, else it is ambiguous: the writer must give the key.
 */

/** An item as the resolution sees it. */
export interface ScopedItem {
  key: string;
  /** The run that created the item; null when no run owns it. */
  origin_run_id: string | null;
}

/** The writer's scope: its run (none outside a run) and the other runs' item keys that run may revise. */
export interface WriteScope {
  run_id?: string | null;
  revise: readonly string[];
}

export type NameResolution<T extends ScopedItem> =
  { kind: 'item'; item: T } | { kind: 'new' } | { kind: 'ambiguous'; keys: string[] };

/** The rank of an item for a run's by-name write: lower wins; undefined when the run may not touch it. */
function rankInRun(item: ScopedItem, runId: string, revise: readonly string[]): number | undefined {
  if (item.origin_run_id === runId) return 0;
  if (revise.includes(item.key)) return 1;
  if (item.origin_run_id === null) return 2;
  return undefined;
}

/** The item a by-name write resolves to among the items of that name, type and project (`candidates`). */
export function resolveByName<T extends ScopedItem>(candidates: readonly T[], scope: WriteScope): NameResolution<T> {
  const runId = scope.run_id ?? null;
  if (runId) {
    const ranked = candidates
      .map((item) => ({ item, rank: rankInRun(item, runId, scope.revise) }))
      .filter((c): c is { item: T; rank: number } => c.rank !== undefined);
    if (!ranked.length) return { kind: 'new' };
    const best = Math.min(...ranked.map((c) => c.rank));
    const top = ranked.filter((c) => c.rank === best).map((c) => c.item);
    return top.length === 1
      ? { kind: 'item', item: top[0] }
      : { kind: 'ambiguous', keys: top.map((i) => i.key).sort() };
  }
  if (!candidates.length) return { kind: 'new' };
  if (candidates.length === 1) return { kind: 'item', item: candidates[0] };
  const unowned = candidates.filter((c) => c.origin_run_id === null);
  if (unowned.length === 1) return { kind: 'item', item: unowned[0] };
  return { kind: 'ambiguous', keys: candidates.map((c) => c.key).sort() };
}

/**
 * Why a write in `scope` may not revise `item` named by key, or undefined when it may: outside a run always; in a run
 * its own items, the items no run owns and the keys its request listed in `revise`.
 */
export function refusalToRevise(item: ScopedItem, scope: WriteScope): string | undefined {
  const runId = scope.run_id ?? null;
  if (!runId || item.origin_run_id === null || item.origin_run_id === runId || scope.revise.includes(item.key))
    return undefined;
  return `${item.key} belongs to run ${item.origin_run_id}; run ${runId} may revise it only when its start request lists it (revise: ["${item.key}"]); nothing was written`;
}

/**
 * The change reason a run's revision of another run's item carries (so the earlier run's staleness names who revised
 * it and why); the given reason unchanged when the write is not such a revision.
 */
export function revisionReason(item: ScopedItem, scope: WriteScope, given: string | null): string | null {
  const runId = scope.run_id ?? null;
  if (!runId || item.origin_run_id === null || item.origin_run_id === runId) return given;
  const note = `revised by run ${runId} as its request asked (revise: ${item.key})`;
  return given ? `${note}: ${given}` : note;
}
