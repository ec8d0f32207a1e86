import type { Queryable } from '../../../brokers/db/index.ts';
import type { LedgerRecord } from '../../../contracts/actions/approvals.actions.ts';
import type { LedgerKind } from '../../../contracts/approvals.ts';
import type { ProjectScope } from './gates.source.ts';

const COLUMNS = [
  'id', 'kind', 'status', 'tool_id', 'title', 'arguments', 'detail', 'project_id', 'requested_by', 'reason_held', 'route', 'source',
  'call_id', 'session_id', 'window_seconds', 'deadline', 'decision', 'error', 'created_at', 'updated_at',
] as const;
const TIMES = new Set(['deadline', 'created_at', 'updated_at']);

const iso = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

function toRecord(r: Record<string, unknown>): LedgerRecord {
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS) out[c] = TIMES.has(c) ? iso(r[c]) : r[c];
  out.arguments ??= {};
  out.detail ??= {};
  return out as LedgerRecord;
}

/**
 * The ledger source of the queue for lists: the tool-approval ledger (table tool_approvals, owned by the holds actor)
 * read directly, because a list needs the kind filter and the count of records without a project in indexed queries
 * that `holds.list` does not offer. Single records and every decision go through the holds actor's actions.
 */
export function createLedgerSource(db: Queryable) {
  return {
    async list(status: 'pending' | 'decided' | 'all', scope: ProjectScope, kinds?: LedgerKind[]): Promise<LedgerRecord[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      if (status === 'pending') where.push(`status = 'awaiting_approval'`);
      if (status === 'decided') where.push(`status <> 'awaiting_approval'`);
      if (scope === null) where.push('project_id IS NULL');
      else if (scope !== undefined) where.push(`project_id = $${params.push(scope)}`);
      if (kinds) where.push(`kind = ANY($${params.push(kinds)}::text[])`);
      const sql = `SELECT ${COLUMNS.join(', ')} FROM tool_approvals${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id`;
      return (await db.query<Record<string, unknown>>(sql, params)).rows.map(toRecord);
    },

    /** How many records of this status and kinds have no project (the list's unscoped_count). */
    async countUnscoped(status: 'pending' | 'decided' | 'all', kinds?: LedgerKind[]): Promise<number> {
      const cond = status === 'pending' ? ` AND status = 'awaiting_approval'` : status === 'decided' ? ` AND status <> 'awaiting_approval'` : '';
      const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM tool_approvals WHERE project_id IS NULL${cond}${kinds ? ' AND kind = ANY($1::text[])' : ''}`, kinds ? [kinds] : []);
      return Number(rows[0].n);
    },
  };
}
