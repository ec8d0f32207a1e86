import crypto from 'node:crypto';
import type { Queryable } from '../../brokers/db/index.ts';
import { refOf } from './keys.ts';
import { fenceRunWrite } from './run-fence.ts';

export { draftCloser } from './draft-close.ts';

export interface CommitRequest {
  run_id: string;
  project_id: string | null;
  /** Unique per gate decision, e.g. `<run>:<phase>:<attempt>`; the baseline is recorded once per (project, gate, run). */
  gate_id: string;
  gate_name: string;
  approver: string;
  reason: string;
  /** The epoch of the run's owner committing (decision 0142): checked first, in this transaction. */
  run_epoch?: number;
  /** The gate's phase and attempt: only their drafts are committed (and drafts naming no phase or attempt). */
  phase?: string;
  attempt?: number;
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
 * Test seam (test builds only: a factory option, never reachable from a request): the commit waits on it right after
 * its fence check, inside its transaction with the run row held, as a paused or hung owner would.
 */
export type CommitPause = (step: 'commit_fenced', runId: string) => Promise<void> | void;

/**
 * Commits a run's drafts at a gate approval in ONE transaction (the caller's `q` must be a transaction): the owner's
 * epoch is checked first (a stale one is refused, nothing written); only the drafts of the gate's phase and attempt
 * count; every drafted item's head must still equal the draft's base, else nothing is committed and the conflict names
 * the items; otherwise drafts become `approved`, heads move, SUPERSEDES edges are added, the gate's baseline pins every
 * current item of the project, and dependants of replaced heads are marked stale.
 */
export async function commitChangeSet(
  q: Queryable,
  req: CommitRequest,
  now: Date,
  fault?: FaultInjector,
  pause?: CommitPause,
): Promise<CommitOutcome> {
  // A former owner (stalled past its lease) is refused here, before anything is read or written (decision 0142).
  await fenceRunWrite(q, { run_id: req.run_id, run_epoch: req.run_epoch });
  await pause?.('commit_fenced', req.run_id);
  const { rows: drafts } = await q.query<DraftRow>(
    `SELECT n.id, n.item_key, n.revision, n.base_revision, i.head_revision, i.head_node_id
     FROM twin_nodes n JOIN twin_items i ON i.key = n.item_key
     WHERE n.run_id = $1 AND n.revision_status = 'draft'
       AND ($2::text IS NULL OR n.phase IS NULL OR n.phase = $2) AND ($3::int IS NULL OR n.attempt IS NULL OR n.attempt = $3)
     ORDER BY n.item_key FOR UPDATE OF i, n`,
    [req.run_id, req.phase ?? null, req.attempt ?? null],
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
  // The change set is committed once no draft of the run is left open (another phase's drafts wait for their gate).
  await q.query(
    `UPDATE twin_change_sets SET status = 'committed', closed_at = $2
     WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM twin_nodes WHERE run_id = $1 AND revision_status = 'draft')`,
    [req.run_id, now],
  );
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
