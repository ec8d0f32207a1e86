import { action } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import { HoldsQueueActions as Q } from '../../contracts/actions/approval-sources.actions.ts';
import type { LedgerRecord } from '../../contracts/actions/approvals.actions.ts';
import { COLUMNS as LEDGER_COLUMNS, iso } from './hold.store.ts';

/** The ledger row as the queue sees it: every column but the hold's own delivery bookkeeping. */
const COLUMNS = LEDGER_COLUMNS.filter((c) => c !== 'node' && c !== 'next_progress_at');
const TIMES = new Set(['deadline', 'created_at', 'updated_at']);

function toRecord(r: Record<string, unknown>): LedgerRecord {
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS) out[c] = TIMES.has(c) ? iso(r[c]) : r[c];
  out.arguments ??= {};
  out.detail ??= {};
  return out as LedgerRecord;
}

const statusSql = (status: 'pending' | 'decided' | 'all') =>
  status === 'pending' ? `status = 'awaiting_approval'` : status === 'decided' ? `status <> 'awaiting_approval'` : '';

/**
 * The holds actor's query action for the approvals queue (`holds.queueLedger`): ledger records filtered by status,
 * project scope and kind in indexed queries, newest first, and the count of those without a project. Decisions stay
 * `holds.decide` (one guarded UPDATE, exactly once).
 */
export function ledgerQueueActions(infra: Infra) {
  return {
    queueLedger: action(Q.ledger, async ({ status, project_id, kinds, count_unscoped }) => {
      const db = await infra.db();
      const where: string[] = [];
      const params: unknown[] = [];
      if (statusSql(status)) where.push(statusSql(status));
      if (project_id === null) where.push('project_id IS NULL');
      else if (project_id !== undefined) where.push(`project_id = $${params.push(project_id)}`);
      if (kinds) where.push(`kind = ANY($${params.push(kinds)}::text[])`);
      const sql = `SELECT ${COLUMNS.join(', ')} FROM tool_approvals${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id`;
      const countWhere = ['project_id IS NULL', statusSql(status), kinds ? 'kind = ANY($1::text[])' : '']
        .filter(Boolean)
        .join(' AND ');
      const [records, unscoped] = await Promise.all([
        db.query<Record<string, unknown>>(sql, params),
        count_unscoped
          ? db.query<{ n: string }>(
              `SELECT count(*) AS n FROM tool_approvals WHERE ${countWhere}`,
              kinds ? [kinds] : [],
            )
          : undefined,
      ]);
      return { records: records.rows.map(toRecord), unscoped_count: unscoped ? Number(unscoped.rows[0].n) : 0 };
    }),
  };
}
