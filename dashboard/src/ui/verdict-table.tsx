/**
 * The one evaluator's table at a gate (decision 0080, amendment): every requirement of the run as a pending gate item's
 * `verdicts` carry it, in the service's order (blocking first), each row naming its requirement, status and reason.
 * Without `verdicts` the item says why (`detail.verdicts_unavailable`); the findings stay the gate's own list.
 */
import type { ApprovalItem } from '../api/approvals.ts';
import { StatusBadge } from './common.tsx';
import { DataTable, limitColumn, valueColumn, type Column } from './data-table.tsx';

type Verdict = NonNullable<ApprovalItem['verdicts']>[number];

const COLUMNS: Column<Verdict>[] = [
  {
    header: 'Requirement',
    cell: (v) => (
      <>
        {v.id} {v.metric} {v.blocking && <span className="badge bad">blocking</span>}
      </>
    ),
  },
  limitColumn(),
  valueColumn(),
  { header: 'Status', cell: (v) => <StatusBadge status={v.status.replace('_', ' ')} /> },
  { header: 'Reason', cell: (v) => v.reason },
];

export function VerdictTable(props: { item: ApprovalItem }) {
  const { item } = props;
  if (item.kind !== 'gate' || item.status !== 'pending') return null;
  const why = item.detail?.verdicts_unavailable;
  if (!item.verdicts)
    return typeof why === 'string' ? (
      <p className="note warn" data-testid="verdicts-unavailable">
        Requirements not shown: {why}
      </p>
    ) : null;
  if (!item.verdicts.length)
    return (
      <p className="muted" data-testid="gate-verdicts-none">
        The run has recorded no requirements.
      </p>
    );
  return (
    <DataTable
      testId="gate-verdicts"
      caption="Requirements (every requirement of the run, blocking first)"
      columns={COLUMNS}
      rows={item.verdicts}
      rowKey={(v) => `${v.constraint_set}#${v.id}`}
      rowProps={(v) => ({
        'data-requirement': v.id,
        'data-status': v.status,
        'data-blocking': v.blocking ? 'true' : 'false',
      })}
    />
  );
}
