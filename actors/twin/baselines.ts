import { ActorError } from '../../brokers/errors.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { BaselineDetail, BaselineDiff, BaselineList, BaselineSummary } from '../../contracts/twin.ts';
import { refOf } from './keys.ts';

interface SummaryRow {
  id: string;
  name: string;
  created_at: Date;
  approved_by: string[];
  gate_id: string | null;
  project_id: string | null;
  reason: string;
  run_id: string | null;
  source: string;
  item_count: string;
  member_count: string;
}

const SUMMARY_SQL = `SELECT b.*, COALESCE((SELECT p.item_count FROM twin_baseline_pins p WHERE p.baseline_id = b.id), 0) AS item_count,
  (SELECT count(*) FROM twin_baseline_members m WHERE m.baseline_id = b.id) AS member_count FROM twin_baselines b`;

const toSummary = (r: SummaryRow): BaselineSummary => ({
  id: r.id,
  name: r.name,
  created_at: r.created_at.toISOString(),
  approved_by: r.approved_by,
  gate_id: r.gate_id,
  item_count: Number(r.item_count),
  member_count: Number(r.member_count),
  project_id: r.project_id,
  reason: r.reason,
  run_id: r.run_id,
  source: r.source,
});

export async function listBaselines(
  q: Queryable,
  projectId: string | undefined,
  limit: number,
  offset: number,
): Promise<BaselineList> {
  const where = projectId ? 'WHERE b.project_id = $3' : '';
  const params: unknown[] = projectId ? [limit, offset, projectId] : [limit, offset];
  const [page, total] = await Promise.all([
    q.query<SummaryRow>(`${SUMMARY_SQL} ${where} ORDER BY b.created_at DESC, b.id LIMIT $1 OFFSET $2`, params),
    q.query<{ n: string }>(
      `SELECT count(*) AS n FROM twin_baselines b ${projectId ? 'WHERE b.project_id = $1' : ''}`,
      projectId ? [projectId] : [],
    ),
  ]);
  return { baselines: page.rows.map(toSummary), total: Number(total.rows[0].n) };
}

export async function getBaseline(q: Queryable, id: string): Promise<BaselineDetail> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw ActorError.notFound('baseline', id);
  const { rows } = await q.query<SummaryRow>(`${SUMMARY_SQL} WHERE b.id = $1`, [id]);
  if (!rows[0]) throw ActorError.notFound('baseline', id);
  const [items, members] = await Promise.all([
    q.query<{ key: string; item_type: string; name: string; node_id: string; revision: number }>(
      `SELECT u.key, u.item_type, u.name, u.node_id, u.revision FROM twin_baseline_pins p,
         unnest(p.keys, p.item_types, p.names, p.node_ids, p.revisions) AS u(key, item_type, name, node_id, revision)
       WHERE p.baseline_id = $1 ORDER BY u.key`,
      [id],
    ),
    q.query<{ entity_kind: string; entity_id: string; revision: number | null }>(
      'SELECT entity_kind, entity_id, revision FROM twin_baseline_members WHERE baseline_id = $1 ORDER BY entity_kind, entity_id',
      [id],
    ),
  ]);
  return {
    ...toSummary(rows[0]),
    items: items.rows.map((i) => ({ ...i, ref: refOf(i.key, i.revision) })),
    members: members.rows,
  };
}

type Pin = { key: string; item_type: string; name: string; revision: number };

/** Diff of two baselines, or of one against the project's current heads (`b` absent). */
export async function diffBaselines(q: Queryable, aId: string, bId?: string): Promise<BaselineDiff> {
  const a = await getBaseline(q, aId);
  const b = bId ? await getBaseline(q, bId) : null;
  let to: Pin[];
  if (b) to = b.items;
  else {
    const { rows } = await q.query<Pin>(
      `SELECT key, item_type, name, head_revision AS revision FROM twin_items WHERE COALESCE(project_id, '') = COALESCE($1, '') AND head_revision > 0`,
      [a.project_id],
    );
    to = rows;
  }
  const from = new Map(a.items.map((i) => [i.key, i]));
  const toMap = new Map(to.map((i) => [i.key, i]));
  const keys = [...new Set([...from.keys(), ...toMap.keys()])].sort();
  const counts: Record<string, number> = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  const items = keys.map((key) => {
    const f = from.get(key);
    const t = toMap.get(key);
    const status = !f ? 'added' : !t ? 'removed' : f.revision === t.revision ? 'unchanged' : 'changed';
    counts[status]++;
    const any = (t ?? f)!;
    return {
      key,
      item_type: any.item_type,
      name: any.name,
      status,
      from_ref: f ? refOf(key, f.revision) : null,
      from_revision: f?.revision ?? null,
      to_ref: t ? refOf(key, t.revision) : null,
      to_revision: t?.revision ?? null,
    };
  });
  const { items: _ai, members: _am, ...aSummary } = a;
  const bSummary = b ? (({ items: _bi, members: _bm, ...s }) => s)(b) : null;
  return { a: aSummary, b: bSummary, b_is_current: !b, counts, items };
}
