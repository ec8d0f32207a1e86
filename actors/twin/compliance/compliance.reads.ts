import { isUuid, type Queryable } from '../../../brokers/db/index.ts';
import { pinnedGeometryIds, type GeometryPin, type HeadRow, type RecordRow } from './evidence.rules.ts';

/** Item types whose head revisions the checklist reads: requirements, the prd, and evidence by inspection. */
export const HEAD_TYPES = ['constraint_set', 'prd', 'cad_model', 'technical_drawing'];
/** Record types that may be evidence. */
export const RECORD_TYPES = ['simulation_result', 'test_result', 'erc_report', 'drc_report', 'design_decision'];

type Dated<T> = Omit<T, 'created_at'> & { created_at: Date };
const iso = <T extends { created_at: Date }>(r: T) => ({ ...r, created_at: r.created_at.toISOString() });

/**
 * The twin rows of one project's compliance, in at most three indexed queries whatever their number: the head
 * revisions of its requirement, prd, geometry and drawing items (`twin_items_project_idx`), its evidence records
 * visible outside any run (`twin_nodes_project_type_idx`), then the geometry revisions its simulation results pin,
 * with their item's head now (primary key). HTTP callers are in no run: open drafts never count. A head's run is the
 * run that wrote it, else the run that owns its item (decision 0100): a person's waiver on a run's constraint set
 * keeps that set judged on that run's evidence, never on another run's.
 */
export async function readComplianceRows(
  q: Queryable,
  projectId: string,
): Promise<{ heads: HeadRow[]; records: RecordRow[]; pins: GeometryPin[] }> {
  const [heads, records] = await Promise.all([
    q.query<Dated<HeadRow>>(
      `SELECT i.key, i.item_type, i.head_revision AS revision, n.id AS node_id, n.name, n.properties, n.author,
         n.change_reason, n.stale, n.stale_reason, n.created_at,
         COALESCE(n.run_id, i.origin_run_id) AS run_id
       FROM twin_items i JOIN twin_nodes n ON n.id = i.head_node_id
       WHERE i.project_id = $1 AND i.item_type = ANY($2::text[]) AND i.head_revision > 0
       ORDER BY i.updated_at DESC, i.key`,
      [projectId, HEAD_TYPES],
    ),
    q.query<Dated<RecordRow>>(
      `SELECT id, node_type, name, properties, stale, stale_reason, created_at FROM twin_nodes
       WHERE project_id = $1 AND node_type = ANY($2::text[])
         AND (revision_status IS NULL OR revision_status IN ('committed', 'approved'))
       ORDER BY created_at DESC, id`,
      [projectId, RECORD_TYPES],
    ),
  ]);
  const recordRows = records.rows.map(iso);
  const ids = pinnedGeometryIds(recordRows).filter(isUuid);
  const pins = ids.length
    ? (
        await q.query<GeometryPin>(
          `SELECT n.id AS node_id, n.item_key, n.revision, i.head_revision, i.head_node_id
           FROM twin_nodes n LEFT JOIN twin_items i ON i.key = n.item_key WHERE n.id = ANY($1::uuid[])`,
          [ids],
        )
      ).rows
    : [];
  return { heads: heads.rows.map(iso), records: recordRows, pins };
}
