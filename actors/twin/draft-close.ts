import { ActorError } from '../../brokers/errors.ts';
import { batchWriter, type Queryable } from '../../brokers/db/index.ts';
import type { DraftScope } from '../../contracts/actions/twin.actions.ts';

/** One run's drafts to close. */
export interface Close {
  run_id: string;
  status: 'rejected' | 'abandoned';
  reason: string;
  now: Date;
  /** The epoch of the run's owner closing them (decision 0142); absent: not fenced (not a run's own write). */
  run_epoch?: number;
  /** Absent: every draft of the run (it ended). Else only these phases' drafts of earlier attempts. */
  drafts?: DraftScope[];
}

/** What one close did: the drafts it closed, or the epoch the run is held under now when it was fenced. */
type Closed = { n: number } | { fenced: string | null };

/**
 * Closes the drafts of several runs in one statement (atomic without a transaction of its own). Each close is fenced
 * by its run's epoch in that statement (`run_fence_epoch` holds the run row FOR SHARE until it commits, decision 0206):
 * a close from a former owner changes nothing. A scoped close takes only the drafts its scopes name (and drafts that
 * name no phase or attempt: the run's as a whole) and leaves the change set open; a close of every draft closes it too.
 */
async function closeMany(q: Queryable, cs: Close[]): Promise<Closed[]> {
  const scopes = cs.flatMap((c, i) => (c.drafts ?? []).map((d) => ({ i, ...d })));
  const { rows } = await q.query<{ i: number; n: number; allowed: boolean; held: string | null }>(
    `WITH v AS (SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bigint[], $7::boolean[])
                  AS v(i, run_id, status, reason, at, epoch, scoped)),
          s AS (SELECT * FROM unnest($8::int[], $9::text[], $10::int[]) AS s(i, phase, before)),
          f AS (SELECT v.i, run_fence_epoch(v.run_id) AS held FROM v WHERE v.epoch IS NOT NULL),
          ok AS (SELECT v.* FROM v LEFT JOIN f ON f.i = v.i WHERE v.epoch IS NULL OR f.held = v.epoch),
          closed AS (
            UPDATE twin_nodes t SET revision_status = ok.status, status_reason = ok.reason, updated_at = ok.at
            FROM ok WHERE t.run_id = ok.run_id AND t.revision_status = 'draft'
              AND (NOT ok.scoped OR t.phase IS NULL
                   OR EXISTS (SELECT 1 FROM s WHERE s.i = ok.i AND s.phase = t.phase AND (t.attempt IS NULL OR t.attempt < s.before)))
            RETURNING ok.i),
          change_set AS (
            UPDATE twin_change_sets c SET status = ok.status, closed_at = ok.at FROM ok
            WHERE c.id = ok.run_id AND NOT ok.scoped AND c.status = 'open')
     SELECT v.i, (SELECT count(*) FROM closed WHERE closed.i = v.i)::int AS n,
            (v.epoch IS NULL OR f.held = v.epoch) AS allowed, f.held::text AS held
     FROM v LEFT JOIN f ON f.i = v.i`,
    [
      cs.map((_, i) => i),
      cs.map((c) => c.run_id),
      cs.map((c) => c.status),
      cs.map((c) => c.reason),
      cs.map((c) => c.now.toISOString()),
      cs.map((c) => c.run_epoch ?? null),
      cs.map((c) => c.drafts !== undefined),
      scopes.map((s) => s.i),
      scopes.map((s) => s.phase),
      scopes.map((s) => s.before),
    ],
  );
  const byI = new Map(rows.map((r) => [r.i, r]));
  return cs.map((_, i) => {
    const r = byI.get(i);
    return r?.allowed ? { n: r.n } : { fenced: r?.held ?? null };
  });
}

/** The refusal of a close from a former owner: nothing was closed. */
function fencedError(c: Close, held: string | null): ActorError {
  const now = held === null ? 'does not exist' : `is held under epoch ${held} now`;
  return new ActorError(
    'CONFLICT',
    `run ${c.run_id} ${now}; this close of its drafts came from its owner under epoch ${c.run_epoch}, which was taken over: nothing was closed`,
    { run_id: c.run_id, run_epoch: c.run_epoch, fenced: true },
  );
}

/**
 * The closes asked for in one turn of the event loop (a burst of rejected gates ends many runs at once) in one
 * statement; when that statement fails, each close is made alone so that each gets its own answer. The same close
 * twice in one turn finds nothing open the second time (0), as it would after the first.
 */
export function draftCloser(q: () => Queryable): (c: Close) => Promise<number> {
  const keyOf = (c: Close) => JSON.stringify([c.run_id, c.run_epoch ?? null, c.drafts ?? null]);
  const alone = (c: Close) =>
    closeMany(q(), [c]).then(
      ([out]) => ({ out }),
      (err: unknown) => ({ err }),
    );
  const write = batchWriter<Close, { out?: Closed; err?: unknown }>({
    group: () => 'close',
    key: keyOf,
    async write(_g, cs) {
      if (cs.length === 1) return new Map([[keyOf(cs[0]), await alone(cs[0])]]);
      const many = await closeMany(q(), cs).catch(() => undefined);
      if (many) return new Map(cs.map((c, i) => [keyOf(c), { out: many[i] }]));
      return new Map(await Promise.all(cs.map(async (c) => [keyOf(c), await alone(c)] as const)));
    },
  });
  return async (c) => {
    if (!c.reason.trim()) throw new ActorError('VALIDATION_FAILED', 'closing drafts needs a reason');
    const res = (await write(c)) ?? { out: { n: 0 } };
    if (res.err !== undefined) throw res.err;
    const out = res.out ?? { n: 0 };
    if ('fenced' in out) throw fencedError(c, out.fenced);
    return out.n;
  };
}
