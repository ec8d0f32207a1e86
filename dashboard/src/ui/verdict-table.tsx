/**
 * The one evaluator's table at a gate (decision 0080, amendment): every requirement of the run as a pending gate item's
 * `verdicts` carry it, in the service's order (blocking first), each row naming its requirement, status and reason.
 * Without `verdicts` the item says why (`detail.verdicts_unavailable`); the findings stay the gate's own list.
 */
import type { ApprovalItem } from '../api/approvals.ts';
import { StatusBadge } from './common.tsx';

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
    <table className="grid" data-testid="gate-verdicts">
      <caption className="muted" style={{ textAlign: 'left' }}>
        Requirements (every requirement of the run, blocking first)
      </caption>
      <thead>
        <tr>
          <th scope="col">Requirement</th>
          <th scope="col">Limit</th>
          <th scope="col" className="num">
            Value
          </th>
          <th scope="col">Status</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        {item.verdicts.map((v) => (
          <tr
            key={`${v.constraint_set}#${v.id}`}
            data-requirement={v.id}
            data-status={v.status}
            data-blocking={v.blocking ? 'true' : 'false'}
          >
            <td>
              {v.id} {v.metric} {v.blocking && <span className="badge bad">blocking</span>}
            </td>
            <td>
              {v.operator} {v.limit} {v.unit}
            </td>
            <td className="num">{v.value ?? '—'}</td>
            <td>
              <StatusBadge status={v.status.replace('_', ' ')} />
            </td>
            <td>{v.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
