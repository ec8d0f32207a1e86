import type { Queryable } from '../../brokers/db/index.ts';
import type { GateFinding } from '../../contracts/approvals.ts';
import { ANALYSIS_METRICS, ENVELOPE_METRICS, evaluateRequirements, type ConstraintDef } from '../runs/requirements.ts';

export type { ConstraintDef as Constraint } from '../runs/requirements.ts';

interface NodeRow {
  id: string;
  item_key: string | null;
  name: string;
  properties: Record<string, unknown>;
  stale: boolean;
  revision: number | null;
}

const VISIBLE = `(revision_status IS NULL OR revision_status IN ('committed', 'approved') OR (revision_status = 'draft' AND run_id = $2))`;

/** The current revision of every item of a type, as a run sees it (its own draft, else the head). */
async function currentRevisions(q: Queryable, projectId: string | null, runId: string, type: string): Promise<NodeRow[]> {
  const { rows } = await q.query<NodeRow>(
    `SELECT DISTINCT ON (item_key) id, item_key, name, properties, stale, revision FROM twin_nodes
     WHERE COALESCE(project_id, '') = COALESCE($1, '') AND node_type = $3 AND item_key IS NOT NULL AND ${VISIBLE}
     ORDER BY item_key, (revision_status = 'draft') DESC, revision DESC`,
    [projectId, runId, type],
  );
  return rows;
}

/** Every constraint in force for a run: the current revision of each of the project's constraint sets. */
export async function constraintsInForce(q: Queryable, projectId: string | null, runId: string): Promise<{ set: string; c: ConstraintDef }[]> {
  const sets = await currentRevisions(q, projectId, runId, 'constraint_set');
  return sets.flatMap((s) => ((s.properties.constraints as ConstraintDef[] | undefined) ?? []).map((c) => ({ set: `${s.item_key}@${s.revision}`, c })));
}

/** The latest valid (not stale) simulation result that analysed one of the current geometry revisions. */
export async function latestValidResult(q: Queryable, projectId: string | null, runId: string): Promise<NodeRow | undefined> {
  const geoms = await currentRevisions(q, projectId, runId, 'cad_model');
  if (!geoms.length) return undefined;
  const { rows } = await q.query<NodeRow>(
    `SELECT n.id, n.item_key, n.name, n.properties, n.stale, n.revision FROM twin_nodes n
     WHERE COALESCE(n.project_id, '') = COALESCE($1, '') AND n.node_type = 'simulation_result' AND NOT n.stale AND ${VISIBLE.replaceAll('revision_status', 'n.revision_status').replaceAll('run_id', 'n.run_id')}
       AND n.properties->'analysed_geometry'->>'node_id' = ANY($3)
     ORDER BY n.created_at DESC LIMIT 1`,
    [projectId, runId, geoms.map((g) => g.id)],
  );
  return rows[0];
}

/**
 * Constraint checks of a gate that enforces constraints (SPEC: a constraint that cannot be compared is never passed):
 * the requirement evaluation of the lifecycle view (`requirements.ts`, one set of rules) turned into findings:
 * analysis metrics against the latest valid result of the current geometry (`analysis`), envelope metrics against
 * the geometry (`geometry`), anything else that no evidence states reported as not compared (a warning).
 */
export async function constraintFindings(q: Queryable, projectId: string | null, runId: string): Promise<GateFinding[]> {
  const constraints = await constraintsInForce(q, projectId, runId);
  if (!constraints.length) return [];
  const result = await latestValidResult(q, projectId, runId);
  const geometry = (await currentRevisions(q, projectId, runId, 'cad_model')).at(-1);
  const ev = (n: NodeRow | undefined) => n && { node_id: n.id, ref: n.item_key ? `${n.item_key}@${n.revision}` : null, properties: n.properties };
  const out: GateFinding[] = [];
  for (const r of evaluateRequirements(constraints, ev(result), ev(geometry))) {
    if (r.status === 'pass') continue;
    const label = `${r.id} (${r.constraint_set}) ${r.metric} ${r.operator} ${r.limit} ${r.unit}`.trim();
    const kind = ANALYSIS_METRICS.has(r.metric) ? 'analysis' : ENVELOPE_METRICS.includes(r.metric) ? 'geometry' : 'other';
    if (r.status === 'fail') {
      out.push({ kind: kind === 'other' ? 'constraint_violation' : kind, severity: r.severity, message: `violated: ${label}, but ${r.note}` });
    } else {
      out.push({ kind, severity: kind === 'other' ? 'warning' : 'error', message: `not evaluated: ${label} — ${r.note}` });
    }
  }
  return out;
}
