import type { ActionSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import type { Db, Queryable } from '../../brokers/db/index.ts';
import { TwinActions as T, type RunRecord } from '../../contracts/actions/twin.actions.ts';
import { waiversOf, type StaleEvidence } from '../../contracts/requirement-verdicts.ts';
import type { ConstraintDef, ConstraintInForce, Evidence } from '../../contracts/requirements.ts';

/**
 * The twin's query actions built for the gates and runs actors (TwinActions deliverablesSince, gateEvidence,
 * runRecords, currentEvidence): what a gate checks and what a run's lifecycle view reads, so that neither reads the
 * twin's tables. `db` is read at call time: the actor opens its database in `started()`.
 */

interface NodeRow {
  id: string;
  item_key: string | null;
  name: string;
  properties: Record<string, unknown>;
  stale: boolean;
  revision: number | null;
  change_reason?: string | null;
}

/** A node the run may see: committed/approved, or its own draft ($2 is the run id). */
const VISIBLE = `(revision_status IS NULL OR revision_status IN ('committed', 'approved') OR (revision_status = 'draft' AND run_id = $2))`;
/** VISIBLE, or without the run's drafts (a reader in no run: the compliance checklist); $2 stays referenced. */
const visibleTo = (drafts: boolean) =>
  drafts ? VISIBLE : VISIBLE.replace('AND run_id = $2', 'AND run_id = $2 AND FALSE');
const ref = (key: string | null, rev: number | null) => (key && rev ? `${key}@${rev}` : null);
const evidenceOf = (n: NodeRow | undefined): Evidence | null =>
  n ? { node_id: n.id, ref: ref(n.item_key, n.revision), properties: n.properties } : null;

/** Required types with a record visible to the run since `since`; a cad_model counts only when its file is stored. */
async function deliverablesSince(
  q: Queryable,
  p: { project_id: string | null; run_id: string; node_types: string[]; since: string | null },
): Promise<string[]> {
  if (!p.node_types.length) return [];
  const { rows } = await q.query<{ node_type: string }>(
    `SELECT DISTINCT node_type FROM twin_nodes
     WHERE COALESCE(project_id, '') = COALESCE($1, '') AND node_type = ANY($3) AND created_at >= COALESCE($4::timestamptz, '-infinity')
       AND ${VISIBLE} AND (node_type <> 'cad_model' OR object_key IS NOT NULL)`,
    [p.project_id, p.run_id, p.node_types, p.since],
  );
  return rows.map((r) => r.node_type);
}

/**
 * The current revision, as the run sees it (its own draft, else the newest approved or committed one), of every item of
 * a type the run itself wrote: a later revision a person committed counts, another run's own items do not.
 */
async function runRevisions(
  q: Queryable,
  projectId: string | null,
  runId: string,
  type: string,
  drafts: boolean,
): Promise<NodeRow[]> {
  const { rows } = await q.query<NodeRow>(
    `SELECT DISTINCT ON (item_key) id, item_key, name, properties, stale, revision, change_reason FROM twin_nodes
     WHERE COALESCE(project_id, '') = COALESCE($1, '') AND node_type = $3 AND ${visibleTo(drafts)}
       AND item_key IN (SELECT item_key FROM twin_nodes WHERE run_id = $2 AND node_type = $3 AND item_key IS NOT NULL)
     ORDER BY item_key, (revision_status = 'draft') DESC, revision DESC`,
    [projectId, runId, type],
  );
  return rows;
}

/**
 * The evidence of a run (decision 0080), read by its gates and its lifecycle view alike: the constraints of the
 * constraint sets the run wrote, the run's current geometry (of the cad_model items it wrote: the one its latest valid
 * result analyses, else the newest), that result, and the latest verification record since. Another run's geometry is never this run's
 * evidence. `drafts: false` leaves the run's open drafts out (a reader in no run, such as the compliance checklist).
 */
export async function gateEvidence(q: Queryable, projectId: string | null, runId: string, drafts = true) {
  const sets = await runRevisions(q, projectId, runId, 'constraint_set', drafts);
  const constraints: ConstraintInForce[] = sets.flatMap((s) =>
    ((s.properties.constraints as ConstraintDef[] | undefined) ?? []).map((c) => ({
      set: `${s.item_key}@${s.revision}`,
      c,
    })),
  );
  // The waivers the same revisions state (waiversOf: the one reading), so a waived requirement reads waived everywhere.
  const waivers = Object.fromEntries(
    sets.map((s) => [`${s.item_key}@${s.revision}`, waiversOf(s.properties.waivers, s.change_reason ?? '')]),
  );
  if (!constraints.length) return { constraints, result: null, geometry: null, verification: null, waivers };
  const geoms = (await runRevisions(q, projectId, runId, 'cad_model', drafts)).filter((g) => !g.stale);
  if (!geoms.length) return { constraints, result: null, geometry: null, verification: null, waivers };
  const { rows } = await q.query<NodeRow & { geometry: string; created_at: Date }>(
    `SELECT n.id, n.item_key, n.name, n.properties, n.stale, n.revision,
       n.properties->'analysed_geometry'->>'node_id' AS geometry FROM twin_nodes n
     WHERE COALESCE(n.project_id, '') = COALESCE($1, '') AND n.node_type = 'simulation_result' AND NOT n.stale AND ${visibleTo(drafts).replaceAll('revision_status', 'n.revision_status').replaceAll('run_id', 'n.run_id')}
       AND n.properties->'analysed_geometry'->>'node_id' = ANY($3)
     ORDER BY n.created_at DESC, n.id DESC LIMIT 1`,
    [projectId, runId, geoms.map((g) => g.id)],
  );
  const newest = await q.query<{ id: string }>(
    'SELECT id FROM twin_nodes WHERE id = ANY($1) ORDER BY created_at DESC, id DESC LIMIT 1',
    [geoms.map((g) => g.id)],
  );
  const geometry = geoms.find((g) => g.id === (rows[0]?.geometry ?? newest.rows[0]?.id)) ?? geoms[0]!;
  return {
    constraints,
    result: evidenceOf(rows[0]),
    geometry: evidenceOf(geometry),
    verification: await verificationOf(q, projectId, geometry.id, runId, drafts),
    stale: rows[0] ? [] : await staleResults(q, projectId, runId, geoms, drafts),
    waivers,
  };
}

/**
 * With no valid result of the current geometry: the latest result of an older revision of the run's geometry items, or
 * one marked stale; it can only make a requirement stale (decision 0080), never pass it.
 */
async function staleResults(
  q: Queryable,
  projectId: string | null,
  runId: string,
  geoms: NodeRow[],
  drafts: boolean,
): Promise<StaleEvidence[]> {
  const { rows } = await q.query<NodeRow & { stale_reason: string | null; geometry_ref: string | null }>(
    `SELECT n.id, n.item_key, n.name, n.properties, n.stale, n.revision, n.stale_reason,
       g.item_key || '@' || g.revision AS geometry_ref
     FROM twin_nodes n JOIN twin_nodes g ON g.id::text = n.properties->'analysed_geometry'->>'node_id'
     WHERE COALESCE(n.project_id, '') = COALESCE($1, '') AND n.node_type = 'simulation_result'
       AND ${visibleTo(drafts).replaceAll('revision_status', 'n.revision_status').replaceAll('run_id', 'n.run_id')}
       AND g.item_key = ANY($3) AND (n.stale OR NOT (g.id::text = ANY($4)))
     ORDER BY n.created_at DESC, n.id DESC LIMIT 1`,
    [projectId, runId, geoms.map((g) => g.item_key), geoms.map((g) => g.id)],
  );
  return rows.map((r) => ({
    kind: 'simulation_result' as const,
    ...evidenceOf(r)!,
    stale_reason: r.stale_reason ?? `it analyses ${r.geometry_ref ?? 'an older geometry'}, not the current revision`,
  }));
}

/**
 * The latest verification record (a test_result stating `values`) written since the geometry revision `geometryId`
 * (so a new geometry revision leaves it behind) by the run itself or by no run (a person's bench test): another run's
 * record is never this run's evidence (decision 0100). `drafts` as in `gateEvidence`; `runId` null: the project's
 * committed records, whoever wrote them (`currentEvidence`).
 */
async function verificationOf(
  q: Queryable,
  projectId: string | null,
  geometryId: string,
  runId: string | null,
  drafts: boolean,
) {
  const { rows } = await q.query<NodeRow>(
    `SELECT n.id, n.item_key, n.name, n.properties, n.stale, n.revision FROM twin_nodes n
     WHERE COALESCE(n.project_id, '') = COALESCE($1, '') AND n.node_type = 'test_result' AND NOT n.stale
       AND jsonb_typeof(n.properties->'values') = 'object' AND ($2::text IS NULL OR n.run_id IS NULL OR n.run_id = $2)
       AND ${visibleTo(drafts).replaceAll('revision_status', 'n.revision_status').replaceAll('run_id', 'n.run_id')}
       AND n.created_at >= (SELECT g.created_at FROM twin_nodes g WHERE g.id = $3)
     ORDER BY n.created_at DESC LIMIT 1`,
    [projectId, runId, geometryId],
  );
  return evidenceOf(rows[0]);
}

/** Every node the run wrote, oldest first, with its item's head revision; and the baselines of its gate approvals. */
async function runRecords(q: Queryable, runId: string) {
  const { rows } = await q.query<Omit<RunRecord, 'created_at'> & { created_at: Date }>(
    `SELECT n.id, n.item_key, n.node_type, n.name, n.revision, n.revision_status, n.phase, n.gate, n.status_reason, n.stale,
       n.stale_reason, n.properties, n.created_at, i.head_revision,
       CASE WHEN h.id <> n.id THEN h.change_reason END AS head_change_reason
     FROM twin_nodes n LEFT JOIN twin_items i ON i.key = n.item_key LEFT JOIN twin_nodes h ON h.id = i.head_node_id
     WHERE n.run_id = $1 ORDER BY n.created_at, n.id`,
    [runId],
  );
  const { rows: baselines } = await q.query<{ id: string; gate_id: string | null }>(
    'SELECT id, gate_id FROM twin_baselines WHERE run_id = $1',
    [runId],
  );
  return { records: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })), baselines };
}

/** The head of each cad_model item of the project and the latest valid committed result analysing one of them. */
async function currentEvidence(q: Queryable, projectId: string | null) {
  const { rows: geoms } = await q.query<NodeRow>(
    `SELECT n.id, n.item_key, n.name, n.properties, n.stale, n.revision FROM twin_items i JOIN twin_nodes n ON n.id = i.head_node_id
     WHERE COALESCE(i.project_id, '') = COALESCE($1, '') AND i.item_type = 'cad_model' ORDER BY i.updated_at DESC`,
    [projectId],
  );
  if (!geoms.length) return { result: null, geometry: null, verification: null };
  const { rows } = await q.query<NodeRow & { geometry: string }>(
    `SELECT id, item_key, name, properties, stale, revision, properties->'analysed_geometry'->>'node_id' AS geometry FROM twin_nodes
     WHERE COALESCE(project_id, '') = COALESCE($1, '') AND node_type = 'simulation_result' AND NOT stale
       AND (revision_status IS NULL OR revision_status IN ('committed', 'approved'))
       AND properties->'analysed_geometry'->>'node_id' = ANY($2) ORDER BY created_at DESC LIMIT 1`,
    [projectId, geoms.map((g) => g.id)],
  );
  const result = rows[0];
  const geometry = geoms.find((g) => g.id === result?.geometry) ?? geoms[0]!;
  return {
    result: evidenceOf(result),
    geometry: evidenceOf(geometry),
    verification: await verificationOf(q, projectId, geometry.id, null, false),
  };
}

export function runQueryActions(db: () => Db): Record<string, ActionSchema> {
  return {
    deliverablesSince: action(T.deliverablesSince, async (p) => ({ present: await deliverablesSince(db(), p) })),
    gateEvidence: action(T.gateEvidence, (p) => gateEvidence(db(), p.project_id, p.run_id)),
    runRecords: action(T.runRecords, (p) => runRecords(db(), p.run_id)),
    currentEvidence: action(T.currentEvidence, (p) => currentEvidence(db(), p.project_id)),
  };
}
