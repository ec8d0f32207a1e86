import type { Queryable } from '../../brokers/db/index.ts';
import type { RunChanges } from '../../contracts/design-flows.ts';
import type { StaleEntry } from './lifecycle.ts';
import type { ConstraintDef, Evidence } from './requirements.ts';
import type { RunState } from './run.types.ts';

/**
 * Read-only queries of the twin's tables for a run's lifecycle view and change list (as the gates actor's checks
 * read them): what the run produced, what went stale since, its approved requirements, and the current evidence.
 */

interface ProducedRow {
  id: string;
  item_key: string | null;
  node_type: string;
  name: string;
  revision: number | null;
  revision_status: string | null;
  phase: string | null;
  gate: string | null;
  status_reason: string | null;
  stale: boolean;
  stale_reason: string | null;
  properties: Record<string, unknown>;
  created_at: Date;
  head_revision: number | null;
}

const ref = (key: string | null, rev: number | null) => (key && rev ? `${key}@${rev}` : null);

async function produced(q: Queryable, runId: string): Promise<ProducedRow[]> {
  const { rows } = await q.query<ProducedRow>(
    `SELECT n.id, n.item_key, n.node_type, n.name, n.revision, n.revision_status, n.phase, n.gate, n.status_reason, n.stale,
       n.stale_reason, n.properties, n.created_at, i.head_revision
     FROM twin_nodes n LEFT JOIN twin_items i ON i.key = n.item_key WHERE n.run_id = $1 ORDER BY n.created_at, n.id`,
    [runId],
  );
  return rows;
}

/** What the run approved (item revisions) or recorded that is no longer current: superseded since, or marked stale. */
export function staleOf(rows: ProducedRow[]): StaleEntry[] {
  const out: StaleEntry[] = [];
  const kept = (r: ProducedRow) => r.revision_status === null || ['approved', 'committed'].includes(r.revision_status);
  const runLatest = new Map<string, number>();
  for (const r of rows) if (r.item_key && r.revision && kept(r)) runLatest.set(r.item_key, Math.max(runLatest.get(r.item_key) ?? 0, r.revision));
  for (const r of rows) {
    // A revision the run itself replaced later (rework) is history, not staleness.
    if (!kept(r) || (r.item_key && r.revision && r.revision < (runLatest.get(r.item_key) ?? 0))) continue;
    const superseded = r.item_key && r.revision && r.head_revision !== null && r.head_revision > r.revision;
    if (superseded) out.push({ node_id: r.id, ref: ref(r.item_key, r.revision), phase: r.phase, reason: `${ref(r.item_key, r.revision)} was superseded by ${ref(r.item_key, r.head_revision)}` });
    else if (r.stale) out.push({ node_id: r.id, ref: ref(r.item_key, r.revision), phase: r.phase, reason: r.stale_reason ?? `${r.node_type} ${r.name} is stale` });
  }
  return out;
}

/** The constraints of the run's approved constraint sets (the latest approved revision of each set). */
export function constraintsOf(rows: ProducedRow[]): { set: string; c: ConstraintDef }[] {
  const latest = new Map<string, ProducedRow>();
  for (const r of rows) {
    if (r.node_type !== 'constraint_set' || r.revision_status !== 'approved' || !r.item_key) continue;
    const prev = latest.get(r.item_key);
    if (!prev || (r.revision ?? 0) > (prev.revision ?? 0)) latest.set(r.item_key, r);
  }
  return [...latest.values()].flatMap((s) =>
    ((s.properties.constraints as ConstraintDef[] | undefined) ?? []).filter((c) => typeof c?.metric === 'string' && typeof c?.limit === 'number').map((c) => ({ set: ref(s.item_key, s.revision)!, c })),
  );
}

interface EvidenceRow {
  id: string;
  item_key: string | null;
  revision: number | null;
  properties: Record<string, unknown>;
}
const toEvidence = (r: EvidenceRow | undefined): Evidence | undefined => (r ? { node_id: r.id, ref: ref(r.item_key, r.revision), properties: r.properties } : undefined);

/** The current geometry (head of each cad_model item of the project) and the latest valid result analysing one of them. */
async function currentEvidence(q: Queryable, projectId: string | null): Promise<{ result?: Evidence; geometry?: Evidence }> {
  const { rows: geoms } = await q.query<EvidenceRow>(
    `SELECT n.id, n.item_key, n.revision, n.properties FROM twin_items i JOIN twin_nodes n ON n.id = i.head_node_id
     WHERE COALESCE(i.project_id, '') = COALESCE($1, '') AND i.item_type = 'cad_model' ORDER BY i.updated_at DESC`,
    [projectId],
  );
  if (!geoms.length) return {};
  const { rows } = await q.query<EvidenceRow & { geometry: string }>(
    `SELECT id, item_key, revision, properties, properties->'analysed_geometry'->>'node_id' AS geometry FROM twin_nodes
     WHERE COALESCE(project_id, '') = COALESCE($1, '') AND node_type = 'simulation_result' AND NOT stale
       AND (revision_status IS NULL OR revision_status IN ('committed', 'approved'))
       AND properties->'analysed_geometry'->>'node_id' = ANY($2) ORDER BY created_at DESC LIMIT 1`,
    [projectId, geoms.map((g) => g.id)],
  );
  const result = rows[0];
  return { result: toEvidence(result), geometry: toEvidence(geoms.find((g) => g.id === result?.geometry) ?? geoms[0]) };
}

/** Everything the lifecycle view reads from the twin for a run. */
export async function loadRunEvidence(q: Queryable, s: RunState) {
  const rows = await produced(q, s.id);
  const evidence = await currentEvidence(q, s.project_id);
  const limits: string[] = [];
  if (!evidence.geometry) limits.push('the project has no committed geometry: geometry and analysis requirements have no data');
  else if (!evidence.result) limits.push('no valid (not stale) simulation result analyses the current geometry: analysis requirements have no data');
  return { stale: staleOf(rows), constraints: constraintsOf(rows), ...evidence, limits };
}

/**
 * The item revisions a run produced and what each gate did with them. A revision belongs to the first gate of its
 * phase decided after it was written, else to its phase's open gate; approved revisions name their gate and baseline.
 */
export async function runChanges(q: Queryable, s: RunState): Promise<RunChanges> {
  const rows = (await produced(q, s.id)).filter((r) => r.item_key);
  const { rows: baselines } = await q.query<{ id: string; gate_id: string }>('SELECT id, gate_id FROM twin_baselines WHERE run_id = $1', [s.id]);
  const baselineOf = new Map(baselines.map((b) => [b.gate_id, b.id]));
  const gateName = (phase: string) => s.flow.definition.phases.find((p) => p.id === phase)?.gate.name ?? phase;
  const gates: RunChanges['gates'] = s.decisions.map((d) => ({
    gate_id: d.gate_id,
    phase: d.phase,
    name: gateName(d.phase),
    decision: d.decision,
    reason: d.reason,
    approver: d.approver,
    decided_at: d.decided_at,
    outcome: d.decision === 'approve' ? ('approved' as const) : ('closed' as const),
    baseline_id: baselineOf.get(d.gate_id) ?? null,
    revisions: [],
  }));
  if (s.gate) {
    gates.push({ gate_id: s.gate.gate_id, phase: s.gate.phase, name: gateName(s.gate.phase), decision: null, reason: '', approver: null, decided_at: null, outcome: 'waiting', baseline_id: null, revisions: [] });
  }
  const revisions = rows.map((r) => {
    const status = r.revision_status ?? 'committed';
    const gate =
      (r.gate && gates.find((g) => g.gate_id === r.gate)) ||
      gates.find((g) => g.phase === r.phase && (g.decided_at === null || new Date(g.decided_at) >= r.created_at));
    if (gate) gate.revisions.push(ref(r.item_key, r.revision)!);
    const outcome = ['approved', 'committed'].includes(status) ? ('approved' as const) : status === 'draft' ? ('waiting' as const) : ('closed' as const);
    return {
      node_id: r.id,
      key: r.item_key!,
      item_type: r.node_type,
      name: r.name,
      revision: r.revision ?? 0,
      ref: ref(r.item_key, r.revision) ?? r.item_key!,
      status,
      phase: r.phase,
      gate: r.gate ?? gate?.gate_id ?? null,
      status_reason: r.status_reason,
      outcome,
      baseline_id: outcome === 'approved' && r.gate ? (baselineOf.get(r.gate) ?? null) : null,
      superseded: !!(r.revision && r.head_revision !== null && r.head_revision > r.revision && outcome === 'approved'),
      created_at: r.created_at.toISOString(),
    };
  });
  return { run_id: s.id, project_id: s.project_id, revisions, gates };
}
