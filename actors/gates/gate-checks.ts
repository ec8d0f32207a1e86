import type { Queryable } from '../../brokers/db/index.ts';
import type { GateFinding } from '../../contracts/approvals.ts';

export interface GateCheckInput {
  run_id: string;
  project_id: string | null;
  phase: string;
  started_at: string | null;
  required_deliverables: string[];
  enforce_deliverables: boolean;
}

/**
 * Required deliverables: a work product of each required type recorded for the project since the phase started,
 * visible to the run (its own drafts and records, or committed revisions). A cad_model counts only when its file is
 * stored. Missing ones are `missing_deliverable` findings; they block only when the phase enforces deliverables.
 */
export async function deliverableFindings(q: Queryable, p: GateCheckInput): Promise<GateFinding[]> {
  if (!p.required_deliverables.length) return [];
  const { rows } = await q.query<{ node_type: string; n: string }>(
    `SELECT node_type, count(*) AS n FROM twin_nodes
     WHERE COALESCE(project_id, '') = COALESCE($1, '') AND node_type = ANY($2) AND created_at >= COALESCE($3::timestamptz, '-infinity')
       AND (revision_status IS NULL OR revision_status IN ('committed', 'approved') OR (revision_status = 'draft' AND run_id = $4))
       AND (node_type <> 'cad_model' OR object_key IS NOT NULL)
     GROUP BY node_type`,
    [p.project_id, p.required_deliverables, p.started_at, p.run_id],
  );
  const present = new Set(rows.filter((r) => Number(r.n) > 0).map((r) => r.node_type));
  return p.required_deliverables
    .filter((t) => !present.has(t))
    .map((t) => ({
      kind: 'missing_deliverable' as const,
      severity: p.enforce_deliverables ? 'error' : 'warning',
      message: `no ${t} was recorded in phase ${p.phase}${t === 'cad_model' ? ' (a cad_model counts only when its file is stored)' : ''}`,
    }));
}
