import { call, type Caller } from '../../../brokers/actions.ts';
import { HoldsQueueActions } from '../../../contracts/actions/approval-sources.actions.ts';
import type { LedgerRecord } from '../../../contracts/actions/approvals.actions.ts';
import type { LedgerKind } from '../../../contracts/approvals.ts';
import type { ProjectScope } from './gates.source.ts';

/**
 * The ledger source of the queue: the holds actor's query action `holds.queueLedger` (status, scope and kind filters
 * and the count of records without a project, in indexed queries on its table). Single records and every decision go
 * through `holds.get` and `holds.decide`.
 */
export async function listLedger(
  via: Caller,
  status: 'pending' | 'decided' | 'all',
  scope: ProjectScope,
  kinds: LedgerKind[] | undefined,
  countUnscoped: boolean,
): Promise<{ records: LedgerRecord[]; unscoped: number }> {
  const r = await call(via, HoldsQueueActions.ledger, {
    status,
    project_id: scope,
    kinds,
    count_unscoped: countUnscoped,
  });
  return { records: r.records, unscoped: r.unscoped_count };
}
