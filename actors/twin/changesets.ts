import crypto from 'node:crypto';
import { ActorError } from '../../brokers/errors.ts';
import { batchWriter, type Queryable } from '../../brokers/db/index.ts';
import { refOf } from './keys.ts';

export interface CommitRequest {
  run_id: string;
  project_id: string | null;
  /** Unique per gate decision, e.g. `<run>:<phase>:<attempt>`; the baseline is recorded once per (project, gate, run). */
  gate_id: string;
  gate_name: string;
  approver: string;
  reason: string;
}

export interface Conflict {
  key: string;
  base_revision: number;
  head_revision: number;
}

export type CommitOutcome =
  | {
      status: 'committed';
      committed: { key: string; ref: string; node_id: string }[];
      baseline_id: string;
      stale_marked: string[];
    }
  | { status: 'conflict'; conflicts: Conflict[] };

interface DraftRow {
  id: string;
  item_key: string;
  revision: number;
  base_revision: number;
  head_revision: number;
  head_node_id: string | null;
}

/** Test seam: a fault raised at a named step proves the commit is all-or-nothing. Never set in production. */
export type FaultInjector = (step: 'after_heads' | 'after_baseline') => void;

/**
 * Commits a run's drafts at a gate approval in ONE transaction (the caller's `q` must be a transaction):
 * every drafted item's head must still equal the draft's base, else nothing is committed and the conflict names the
 * items; otherwise drafts become `approved`, heads move, SUPERSEDES edges are added, the gate's baseline pins every
 * current item of the project, and dependants of replaced heads are marked stale.
 */
export async function commitChangeSet(
  q: Queryable,
  req: CommitRequest,
  now: Date,
  fault?: FaultInjector,
): Promise<CommitOutcome> {
  const { rows: drafts } = await q.query<DraftRow>(
    `SELECT n.id, n.item_key, n.revision, n.base_revision, i.head_revision, i.head_node_id
     FROM twin_nodes n JOIN twin_items i ON i.key = n.item_key
     WHERE n.run_id = $1 AND n.revision_status = 'draft' ORDER BY n.item_key FOR UPDATE OF i, n`,
    [req.run_id],
  );
  const conflicts = drafts
    .filter((d) => d.head_revision !== d.base_revision)
    .map((d) => ({ key: d.item_key, base_revision: d.base_revision, head_revision: d.head_revision }));
  if (conflicts.length) return { status: 'conflict', conflicts };

  const change = `Approved at gate '${req.gate_name}' by ${req.approver}${req.reason ? `: ${req.reason}` : ''}`;
  // Set-based: a handful of statements whatever the number of drafts (one per draft cost 1,000 round trips at 200).
  const ids = drafts.map((d) => d.id);
  const keys = drafts.map((d) => d.item_key);
  const revisions = drafts.map((d) => d.head_revision + 1);
  const replaced = drafts.filter((d) => d.head_node_id);
  if (drafts.length) {
    await q.query(
      `UPDATE twin_nodes n SET revision_status = 'approved', revision = d.rev, gate = $3, approved_by = $4, approved_at = $5,
         change_reason = COALESCE(n.change_reason || ' / ', '') || $6, draft_note = NULL, updated_at = $5
       FROM unnest($1::uuid[], $2::int[]) AS d(id, rev) WHERE n.id = d.id`,
      [ids, revisions, req.gate_id, req.approver, now, change],
    );
    await q.query(
      `UPDATE twin_items i SET head_revision = d.rev, head_node_id = d.id, updated_at = $4
       FROM unnest($1::text[], $2::int[], $3::uuid[]) AS d(key, rev, id) WHERE i.key = d.key`,
      [keys, revisions, ids, now],
    );
  }
  let stale: string[] = [];
  if (replaced.length) {
    const src = replaced.map((d) => d.id);
    const old = replaced.map((d) => d.head_node_id!);
    await q.query(
      `INSERT INTO twin_edges (src, dst, rel_type, properties)
       SELECT d.src, d.dst, r.rel, r.props FROM unnest($1::uuid[], $2::uuid[]) AS d(src, dst)
       CROSS JOIN (VALUES ('REVISION_OF', $3::jsonb), ('SUPERSEDES', $4::jsonb)) AS r(rel, props)`,
      [src, old, JSON.stringify({ change_reason: change }), JSON.stringify({ gate: req.gate_id })],
    );
    const reasons = replaced.map(
      (d) => `${refOf(d.item_key, d.head_revision)} was superseded by ${refOf(d.item_key, d.head_revision + 1)}`,
    );
    const { rows } = await q.query<{ id: string }>(
      `UPDATE twin_nodes t SET stale = true, stale_reason = x.reason, updated_at = $3
       FROM (SELECT e.src, min(r.reason) AS reason FROM twin_edges e JOIN unnest($1::uuid[], $2::text[]) AS r(old, reason) ON e.dst = r.old
             WHERE e.rel_type IN ('DEPENDS_ON', 'DERIVES_FROM') GROUP BY e.src) x
       WHERE t.id = x.src AND NOT t.stale RETURNING t.id`,
      [old, reasons, now],
    );
    stale = rows.map((r) => r.id);
  }
  const committed = drafts.map((d, i) => ({ key: d.item_key, ref: refOf(d.item_key, revisions[i]), node_id: d.id }));
  fault?.('after_heads');
  const baseline_id = await recordGateBaseline(q, req, now);
  fault?.('after_baseline');
  await q.query(`UPDATE twin_change_sets SET status = 'committed', closed_at = $2 WHERE id = $1`, [req.run_id, now]);
  return { status: 'committed', committed, baseline_id, stale_marked: stale };
}

/** The gate's baseline: every current item of the project, plus the run's records as members. Once per (project, gate, run). */
async function recordGateBaseline(q: Queryable, req: CommitRequest, now: Date): Promise<string> {
  const existing = await q.query<{ id: string }>(
    `SELECT id FROM twin_baselines WHERE COALESCE(project_id, '') = COALESCE($1, '') AND gate_id = $2 AND run_id = $3`,
    [req.project_id, req.gate_id, req.run_id],
  );
  if (existing.rows[0]) return existing.rows[0].id;
  const id = crypto.randomUUID();
  await q.query(
    `INSERT INTO twin_baselines (id, name, project_id, gate_id, run_id, approved_by, reason, source, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'gate', $8)`,
    [id, `${req.gate_name} approval`, req.project_id, req.gate_id, req.run_id, [req.approver], req.reason, now],
  );
  await q.query(
    `INSERT INTO twin_baseline_pins (baseline_id, keys, item_types, names, node_ids, revisions, item_count)
     SELECT $1, COALESCE(array_agg(key ORDER BY key), '{}'), COALESCE(array_agg(item_type ORDER BY key), '{}'), COALESCE(array_agg(name ORDER BY key), '{}'),
            COALESCE(array_agg(head_node_id ORDER BY key), '{}'), COALESCE(array_agg(head_revision ORDER BY key), '{}'), count(*)
     FROM twin_items WHERE COALESCE(project_id, '') = COALESCE($2, '') AND head_revision > 0`,
    [id, req.project_id],
  );
  await q.query(
    `INSERT INTO twin_baseline_members (baseline_id, entity_kind, entity_id, revision)
     SELECT $1, node_type, id::text, NULL FROM twin_nodes WHERE run_id = $2 AND item_key IS NULL`,
    [id, req.run_id],
  );
  return id;
}

/** One run's drafts to close. */
interface Close {
  run_id: string;
  status: 'rejected' | 'abandoned';
  reason: string;
  now: Date;
}

/**
 * Closes the drafts of several runs in one statement (atomic without a transaction of its own): each run's drafts and
 * its change set close together, each with its own status and reason. Answers how many drafts each run closed.
 */
async function closeMany(q: Queryable, cs: Close[]): Promise<Map<string, number>> {
  const { rows } = await q.query<{ run_id: string; n: number }>(
    `WITH v AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS v(run_id, status, reason, at)),
          closed AS (
            UPDATE twin_nodes t SET revision_status = v.status, status_reason = v.reason, updated_at = v.at
            FROM v WHERE t.run_id = v.run_id AND t.revision_status = 'draft' RETURNING t.run_id),
          change_set AS (
            UPDATE twin_change_sets c SET status = v.status, closed_at = v.at FROM v WHERE c.id = v.run_id AND c.status = 'open')
     SELECT v.run_id, (SELECT count(*) FROM closed WHERE closed.run_id = v.run_id)::int AS n FROM v`,
    [cs.map((c) => c.run_id), cs.map((c) => c.status), cs.map((c) => c.reason), cs.map((c) => c.now.toISOString())],
  );
  return new Map(rows.map((r) => [r.run_id, r.n]));
}

/**
 * The closes asked for in one turn of the event loop (a burst of rejected gates ends many runs at once) in one
 * statement; when that statement fails, each run is closed alone so that each gets its own answer. A second close of
 * the same run in one turn finds nothing open (0), as it would after the first.
 */
export function draftCloser(q: () => Queryable): (c: Close) => Promise<number> {
  const alone = (c: Close) =>
    closeMany(q(), [c]).then(
      (n) => ({ n: n.get(c.run_id) ?? 0 }),
      (err: unknown) => ({ err }),
    );
  const write = batchWriter<Close, { n?: number; err?: unknown }>({
    group: () => 'close',
    key: (c) => c.run_id,
    async write(_g, cs) {
      if (cs.length === 1) return new Map([[cs[0].run_id, await alone(cs[0])]]);
      const many = await closeMany(q(), cs).catch(() => undefined);
      if (many) return new Map(cs.map((c) => [c.run_id, { n: many.get(c.run_id) ?? 0 }]));
      return new Map(await Promise.all(cs.map(async (c) => [c.run_id, await alone(c)] as const)));
    },
  });
  return async (c) => {
    if (!c.reason.trim()) throw new ActorError('VALIDATION_FAILED', 'closing drafts needs a reason');
    const out = (await write(c)) ?? { n: 0 };
    if (out.err !== undefined) throw out.err;
    return out.n ?? 0;
  };
}
