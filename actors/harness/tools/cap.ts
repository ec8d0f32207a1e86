/**
 * The tool array cap of the OpenAI-compatible family (SPEC "Chat and harness rules" 5, "Limits": 128 tools per
 * request). Pure: what to offer and what to drop; the caller logs the drop (offer.ts).
 */
export const OPENAI_TOOL_CAP = 128;

/** What the cap looks at: the canonical id (`adapter.method`, or a bare name for a native tool). */
export interface CappableTool {
  id: string;
  /** The harness's own tools (not from the registry, such as search_tools): always kept. */
  native?: boolean;
}

/** Methods a CAD session cannot do without (rule 5). */
export const SESSION_CRITICAL = new Set([
  'pad_sketch',
  'pocket_sketch',
  'revolve_sketch',
  'loft_sketches',
  'sweep_sketch',
  'list_joints',
]);

/**
 * Companion groups, by method name, whatever the adapter (TOOLS.md, SPEC "Tool-specific rules" 6-7):
 * - stage/import pair: `stage_*` puts a file in the workspace and its next_step points at `import_*`
 *   (twin.stage_work_product_file -> cadkernel.import_step);
 * - export/commit round trip: `export_model` fills the session's export stash that `commit_*` reads by session_id
 *   and obj_id (cadkernel.export_model -> twin.commit_geometry).
 * Every present member of a group is kept, or (when even the kept set overflows the cap) dropped, as one unit:
 * a group is never offered half.
 */
export const COMPANION_GROUPS: { name: string; member(method: string): boolean }[] = [
  { name: 'stage_import', member: (m) => m.startsWith('stage_') || m.startsWith('import_') },
  { name: 'export_commit', member: (m) => m === 'export_model' || m.startsWith('commit_') },
];

export const adapterOf = (t: CappableTool): string => (t.native ? '' : t.id.slice(0, Math.max(0, t.id.indexOf('.'))));
export const methodOf = (id: string): string => id.slice(id.indexOf('.') + 1);

export interface CapResult<T> {
  /** In the order they were given. */
  offered: T[];
  dropped: T[];
}

/**
 * Keeps at most `cap` tools: the native, pinned, `_open_session`, session-critical and companion tools first (in that
 * priority when even they overflow; a companion group whole or not at all), then the rest round-robin across adapters
 * (each adapter's tools in the order given). Under the cap everything is offered.
 */
export function capTools<T extends CappableTool>(
  tools: readonly T[],
  opts: { cap?: number; pinned?: Iterable<string> } = {},
): CapResult<T> {
  const cap = opts.cap ?? OPENAI_TOOL_CAP;
  if (tools.length <= cap) return { offered: [...tools], dropped: [] };
  const pinned = new Set(opts.pinned ?? []);
  const kept = new Set<T>();
  /** Members of a companion group that did not fit whole: never offered half. */
  const barred = new Set<T>();
  const take = (unit: T[]): void => {
    const fresh = unit.filter((t) => !kept.has(t));
    if (kept.size + fresh.length <= cap) for (const t of fresh) kept.add(t);
    else if (unit.length > 1) for (const t of fresh) barred.add(t);
  };
  const each = (pred: (t: T) => boolean) => {
    for (const t of tools) if (pred(t)) take([t]);
  };

  each((t) => t.native === true);
  each((t) => pinned.has(t.id));
  each((t) => !t.native && (methodOf(t.id) === 'open_session' || t.id.endsWith('_open_session')));
  each((t) => !t.native && SESSION_CRITICAL.has(methodOf(t.id)));
  for (const g of COMPANION_GROUPS) take(tools.filter((t) => !t.native && g.member(methodOf(t.id))));

  // The rest, one per adapter per round, adapters in the order they first appear.
  const queues = new Map<string, T[]>();
  for (const t of tools) {
    if (kept.has(t) || barred.has(t)) continue;
    const a = adapterOf(t);
    queues.set(a, [...(queues.get(a) ?? []), t]);
  }
  const lanes = [...queues.values()];
  for (let round = 0; kept.size < cap && lanes.some((q) => q.length > round); round++) {
    for (const q of lanes) {
      if (kept.size >= cap) break;
      if (q.length > round) kept.add(q[round]);
    }
  }
  return { offered: tools.filter((t) => kept.has(t)), dropped: tools.filter((t) => !kept.has(t)) };
}
