/**
 * One approval item as the queue shows it beside the list (`GET /v1/approvals/{id}`): what it is, why it is held,
 * the gate's findings and the evaluator's table of every requirement of its run, the kind's own detail (a gate's run and phase, a held call's tool and arguments, a proposal's
 * changes), the decision once made, and the decision form.
 */
import { Link } from 'react-router';
import { useApproval, type ApprovalItem } from '../api/approvals.ts';
import { DecisionForm } from '../ui/decision-form.tsx';
import { VerdictTable } from '../ui/verdict-table.tsx';
import { Decisions, SentFrom } from './run-sections.tsx';
import { ErrorNote, Json, Loading, StatusBadge, When } from '../ui/common.tsx';

export function ApprovalDetail(props: { id: string }) {
  const q = useApproval(props.id, 2_000);
  if (q.isPending) return <Loading what="the item" />;
  if (q.isError && !q.data) return <ErrorNote error={q.error} prefix={`Cannot read ${props.id}`} />;
  const item = q.data!;
  return (
    <section className="panel" aria-labelledby="approval-detail-h" data-testid="approval-detail">
      <h2 id="approval-detail-h">{item.title}</h2>
      <ErrorNote error={q.error} prefix="Refresh failed (showing the last answer)" />
      <dl className="kv">
        <dt>Id</dt>
        <dd className="mono">{item.id}</dd>
        <dt>Kind</dt>
        <dd>{item.kind}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={item.status} />
        </dd>
        <dt>Project</dt>
        <dd>{item.project_id ? <Link to={`/projects/${item.project_id}`}>{item.project_id}</Link> : 'none'}</dd>
        <dt>Requested by</dt>
        <dd>{item.requested_by ?? '—'}</dd>
        <dt>Created</dt>
        <dd>
          <When at={item.created_at} />
        </dd>
        {item.deadline && (
          <>
            <dt>Deadline</dt>
            <dd>
              <When at={item.deadline} />
            </dd>
          </>
        )}
        <dt>Asked on</dt>
        <dd>{item.route ?? '—'}</dd>
      </dl>
      {item.summary && <p>{item.summary}</p>}
      {item.reason_held && <p className="muted">Held: {item.reason_held}</p>}
      <Findings findings={item.findings ?? []} />
      <VerdictTable item={item} />
      <KindDetail item={item} />
      {item.decision && (
        <p data-testid="decision-record">
          Decided <strong>{item.decision.decision}</strong> by {item.decision.approver}
          {item.decision.approver_verified ? ' (verified)' : ' (unverified)'} on {item.decision.surface}, from{' '}
          <SentFrom decision={item.decision} />, <When at={item.decision.decided_at} />
          {item.decision.reason ? `: “${item.decision.reason}”` : ''}
        </p>
      )}
      {item.kind === 'gate' && Array.isArray(item.detail?.decisions) && (
        // Every decision of the run's gates, oldest first (decision 0061).
        <Decisions decisions={item.detail.decisions as Record<string, unknown>[]} />
      )}
      <h3>Decision</h3>
      <DecisionForm item={item} />
    </section>
  );
}

export function Findings(props: { findings: NonNullable<ApprovalItem['findings']> }) {
  if (!props.findings.length) return <p className="muted">No findings.</p>;
  return (
    <table className="grid" data-testid="findings">
      <caption className="muted" style={{ textAlign: 'left' }}>
        Findings
      </caption>
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Kind</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
        {props.findings.map((f, i) => (
          <tr key={i}>
            <td>
              <StatusBadge status={f.severity} />
            </td>
            <td>{f.kind}</td>
            <td>{f.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The kind's own detail: a gate names its run and gate instance; every kind shows its raw detail on request. */
function KindDetail(props: { item: ApprovalItem }) {
  const d = props.item.detail ?? {};
  const str = (k: string) => (d[k] === undefined || d[k] === null ? '—' : String(d[k]));
  return (
    <>
      {props.item.kind === 'gate' && (
        <dl className="kv" data-testid="gate-detail">
          <dt>Run</dt>
          <dd>
            <Link to={`/runs/${str('run_id')}`}>{str('run_id')}</Link> ({str('design_flow')}, {str('run_status')})
          </dd>
          <dt>Gate</dt>
          <dd>
            {str('gate_name')}: phase {str('phase')}, attempt {str('attempt')}
          </dd>
          <dt>Ready</dt>
          <dd>
            {d.ready === false
              ? d.overridable === true
                ? 'no: approve over the findings with an override reason, or clear them'
                : 'no: approve is offered once the findings are cleared'
              : str('ready')}
            {d.stalled === true ? ' (stalled: the same findings repeated)' : ''}
          </dd>
          <dt>Retries / reworks left</dt>
          <dd>
            {str('retries_left')} / {str('reworks_left')}
          </dd>
          {d.conflict !== undefined && (
            <>
              <dt>Conflict</dt>
              <dd>{str('conflict')}</dd>
            </>
          )}
        </dl>
      )}
      {props.item.kind !== 'gate' && typeof d.tool_id === 'string' && (
        <p>
          Tool <code>{d.tool_id}</code>
          {d.source ? ` (source: ${String(d.source)})` : ''}
        </p>
      )}
      <details>
        <summary>Detail ({props.item.kind})</summary>
        <Json value={d} />
      </details>
    </>
  );
}
