import type { Queryable } from '../../brokers/db/index.ts';
import type { GateFinding } from '../../contracts/approvals.ts';

/** Metrics a simulation result states, and how to read each from its properties. */
const ANALYSIS_METRICS: Record<string, (p: Record<string, unknown>) => number | undefined> = {
  max_von_mises_mpa: (p) => num(p.max_von_mises_mpa),
  max_displacement_mm: (p) => num(p.max_displacement_mm),
  safety_factor: (p) => num(p.safety_factor),
};
/** Envelope metrics checked against the current geometry's bounding box (sorted extents). */
const GEOMETRY_METRICS = ['length_mm', 'width_mm', 'height_mm'];

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface Constraint {
  id: string;
  metric: string;
  operator: string;
  limit: number;
  unit: string;
  severity: string;
  verification_method: string;
}

/** `value operator limit` holds. */
export function satisfies(value: number, operator: string, limit: number): boolean {
  switch (operator) {
    case '<=': return value <= limit;
    case '<': return value < limit;
    case '>=': return value >= limit;
    case '>': return value > limit;
    case '==': return Math.abs(value - limit) <= 1e-9 * Math.max(1, Math.abs(limit));
    case '!=': return value !== limit;
    default: return false;
  }
}

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
export async function constraintsInForce(q: Queryable, projectId: string | null, runId: string): Promise<{ set: string; c: Constraint }[]> {
  const sets = await currentRevisions(q, projectId, runId, 'constraint_set');
  return sets.flatMap((s) => ((s.properties.constraints as Constraint[] | undefined) ?? []).map((c) => ({ set: `${s.item_key}@${s.revision}`, c })));
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
 * analysis metrics against the latest valid result of the current geometry (`analysis` findings), envelope metrics
 * against the geometry's bounding box (`geometry`), anything else reported as not compared.
 */
export async function constraintFindings(q: Queryable, projectId: string | null, runId: string): Promise<GateFinding[]> {
  const constraints = await constraintsInForce(q, projectId, runId);
  if (!constraints.length) return [];
  const result = await latestValidResult(q, projectId, runId);
  const geoms = await currentRevisions(q, projectId, runId, 'cad_model');
  const bbox = geoms.map((g) => g.properties.bounding_box as { min?: number[]; max?: number[] } | undefined).find((b) => b?.min && b?.max);
  const extents = bbox ? bbox.max!.map((v, i) => Math.abs(v - bbox.min![i])).sort((a, b) => b - a) : undefined;
  const out: GateFinding[] = [];
  for (const { set, c } of constraints) {
    const label = `${c.id} (${set}) ${c.metric} ${c.operator} ${c.limit} ${c.unit}`.trim();
    const read = ANALYSIS_METRICS[c.metric];
    if (read) {
      const value = result ? read(result.properties) : undefined;
      if (value === undefined) {
        out.push({ kind: 'analysis', severity: 'error', message: `not evaluated: ${label} — no valid simulation result of the current geometry states ${c.metric}` });
      } else if (!satisfies(value, c.operator, c.limit)) {
        out.push({ kind: 'analysis', severity: 'error', message: `violated: ${label}, but the result ${result!.id} gives ${value} ${c.unit}`.trim() });
      }
      continue;
    }
    const gi = GEOMETRY_METRICS.indexOf(c.metric);
    if (gi >= 0) {
      if (!extents) out.push({ kind: 'geometry', severity: 'error', message: `not evaluated: ${label} — the current geometry has no bounding box` });
      else if (!satisfies(Math.round(extents[gi] * 1000) / 1000, c.operator, c.limit)) {
        out.push({ kind: 'geometry', severity: 'error', message: `violated: ${label}, but the geometry measures ${extents[gi]} mm` });
      }
      continue;
    }
    out.push({ kind: 'other', severity: 'warning', message: `not compared: ${label} — no check reads ${c.metric}, so it is not counted as passed` });
  }
  return out;
}
