/**
 * Sections of the run page: the phase timeline (run view, flow state and lifecycle phase view side by side), the gate
 * decisions with reasons, the lifecycle verdict with its requirements, the run's item revisions (drafts until their
 * gate approves) and the baselines its gates recorded.
 */
import type { BaselineSummary } from '../../../contracts/twin.ts';
import type { FlowState, LifecycleView, RunChanges, RunView } from '../api/runs.ts';
import { Empty, StatusBadge, When } from '../ui/common.tsx';
import { DataTable, limitColumn, valueColumn, type Column } from '../ui/data-table.tsx';
import { FlowBadge, VerdictBadge } from '../ui/flow-badges.tsx';
import { Section } from '../ui/section.tsx';

export function PhaseTimeline(props: { run: RunView; flow?: FlowState; lifecycle?: LifecycleView }) {
  const flowOf = new Map(props.flow?.phases.map((p) => [p.id, p]));
  const viewOf = new Map(props.lifecycle?.phases.map((p) => [p.id, p]));
  return (
    <Section id="phases-h" title="Phases">
      <ol className="timeline" data-testid="phase-timeline">
        {props.run.phases.map((p) => {
          const f = flowOf.get(p.id);
          const v = viewOf.get(p.id);
          return (
            <li key={p.id} data-phase={p.id} data-status={p.status}>
              <strong>{p.title}</strong> <FlowBadge value={p.status} />{' '}
              <span className="muted">
                {p.gate.name}
                {p.attempt > 1 ? `, attempt ${p.attempt}` : ''}
                {p.retries ? `, ${p.retries} retr${p.retries === 1 ? 'y' : 'ies'}` : ''}
                {f?.depends_on.length ? `, after ${f.depends_on.join(', ')}` : ''}
                {f?.usage.calls ? `, ${f.usage.calls} model calls` : ''}
              </span>
              {v && (v.validity === 'STALE' || v.validity === 'POTENTIALLY_INVALID' || v.eligibility === 'BLOCKED') && (
                <>
                  {' '}
                  <FlowBadge value={v.eligibility === 'BLOCKED' ? 'BLOCKED' : v.validity} />
                </>
              )}
              {p.summary && <div>{p.summary}</div>}
              {p.deliverables.length > 0 && (
                <div className="muted">
                  Deliverables: {p.deliverables.map((d) => `${d.type} ${d.ref ?? d.node_id}`).join(', ')}
                </div>
              )}
              {p.failure && (
                <div className="note error">
                  {p.failure.kind}: {p.failure.message}
                </div>
              )}
              {p.skip_reason && <div className="muted">Skipped: {p.skip_reason}</div>}
              {v?.notes.map((n, i) => (
                <div key={i} className="muted">
                  {n}
                </div>
              ))}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}

const CHANNELS = ['dashboard', 'cli', 'mcp', 'chat'];

/**
 * Where a decision was sent from and who was signed in (decision 0061): its channel (records before it: the surface
 * when that names one, else the HTTP API) and the authenticated principal, or that nobody was.
 */
export function SentFrom(props: { decision: Record<string, unknown> }) {
  const d = props.decision;
  const channel =
    typeof d.channel === 'string' ? d.channel : CHANNELS.includes(String(d.surface)) ? String(d.surface) : 'api';
  const principal =
    typeof d.principal === 'string' ? d.principal : d.approver_verified === true ? String(d.approver) : null;
  return (
    <span data-testid="sent-from">
      {channel}
      {d.override_reason ? <span className="muted"> (override: {String(d.override_reason)})</span> : null}{' '}
      <span className="muted">
        {principal ? `signed in as ${principal}` : 'no sign-in'}
        {typeof d.client_id === 'string' && d.client_id ? ` through client ${d.client_id}` : ''}
      </span>
    </span>
  );
}

const s = (v: unknown) => (v === undefined || v === null || v === '' ? '' : String(v));

/** The run's decisions, one row each, in the order they were taken (the run view's order: rows never move). */
const DECISION_COLUMNS: Column<RunView['decisions'][number]>[] = [
  { header: 'Phase', cell: (d) => s(d.phase) },
  { header: 'Decision', cell: (d) => <FlowBadge value={s(d.decision)} /> },
  { header: 'Rework to', cell: (d) => s(d.to_phase) || '—' },
  { header: 'Reason', cell: (d) => s(d.reason) || <span className="muted">none given</span> },
  {
    header: 'Approver',
    cell: (d) => (
      <>
        {s(d.approver)} <span className="muted">({s(d.surface) || 'unknown'})</span>
      </>
    ),
  },
  { header: 'Sent from', cell: (d) => <SentFrom decision={d} /> },
  { header: 'When', cell: (d) => <When at={s(d.decided_at) || null} /> },
];

export function Decisions(props: { decisions: RunView['decisions'] }) {
  return (
    <Section id="decisions-h" title="Decisions">
      {!props.decisions.length ? (
        <Empty>No gate decided yet.</Empty>
      ) : (
        <DataTable testId="decisions" columns={DECISION_COLUMNS} rows={props.decisions} rowKey={(_, i) => String(i)} />
      )}
    </Section>
  );
}

/** The one evaluator's rows (decision 0080), blocking first as the service orders them. */
const REQUIREMENT_COLUMNS: Column<LifecycleView['requirements'][number]>[] = [
  {
    header: 'Requirement',
    cell: (r) => (
      <>
        {r.metric} {r.mandatory ? '' : <span className="muted">(advisory)</span>}
      </>
    ),
  },
  limitColumn(),
  valueColumn(),
  { header: 'Result', cell: (r) => <StatusBadge status={(r.verdict ?? r.status).replace('_', ' ')} /> },
  { header: 'Note', cell: (r) => r.note },
];

export function Lifecycle(props: { lifecycle: LifecycleView }) {
  const l = props.lifecycle;
  return (
    <Section id="lifecycle-h" title="Lifecycle verdict">
      <p>
        <VerdictBadge verdict={l.verdict} testId="run-verdict" /> {l.nextStep}
      </p>
      {l.requirements.length > 0 && (
        <DataTable
          testId="requirements"
          columns={REQUIREMENT_COLUMNS}
          rows={l.requirements}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ 'data-requirement': r.id, 'data-status': r.verdict ?? r.status })}
        />
      )}
      {[...l.warnings.map((w) => `Warning: ${w}`), ...l.limits.map((w) => `Limit: ${w}`)].map((w, i) => (
        <p key={i} className="muted">
          {w}
        </p>
      ))}
      {l.stale.map((s) => (
        <div key={s.node_id} className="note warn">
          Stale {s.ref ?? s.node_id}
          {s.phase ? ` (phase ${s.phase})` : ''}: {s.reason}
        </div>
      ))}
      {l.gaps.map((g, i) => (
        <div key={i} className={`note ${g.blocking ? 'error' : 'warn'}`}>
          Capability gap in {g.phase}: {g.deliverable} needs {g.capability}
          {g.blocking ? ' (blocking)' : ''}
        </div>
      ))}
    </Section>
  );
}

const REVISION_COLUMNS: Column<RunChanges['revisions'][number]>[] = [
  {
    header: 'Item',
    cell: (r) => (
      <>
        <code>{r.ref}</code> {r.name}
        {r.superseded && <span className="muted"> (superseded)</span>}
      </>
    ),
  },
  { header: 'Type', cell: (r) => r.item_type },
  { header: 'Phase', cell: (r) => r.phase ?? '—' },
  { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
  {
    header: 'Gate outcome',
    cell: (r) => (
      <>
        {r.outcome === 'waiting' ? 'draft, waiting for its gate' : r.outcome}
        {r.status_reason ? `: ${r.status_reason}` : ''}
      </>
    ),
  },
];

export function Revisions(props: { changes: RunChanges }) {
  const revs = props.changes.revisions;
  return (
    <Section id="revisions-h" title="Drafts and revisions">
      {!revs.length ? (
        <Empty>The run has written no items yet.</Empty>
      ) : (
        <DataTable testId="revisions" columns={REVISION_COLUMNS} rows={revs} rowKey={(r) => r.node_id} />
      )}
    </Section>
  );
}

const BASELINE_COLUMNS: Column<BaselineSummary>[] = [
  { header: 'Baseline', cell: (b) => b.name },
  { header: 'Items', num: true, cell: (b) => b.item_count },
  { header: 'Approved by', cell: (b) => b.approved_by.join(', ') },
  { header: 'Reason', cell: (b) => b.reason || <span className="muted">none</span> },
  { header: 'Recorded', cell: (b) => <When at={b.created_at} /> },
];

export function Baselines(props: { baselines: BaselineSummary[] }) {
  return (
    <Section id="baselines-h" title="Baselines">
      {!props.baselines.length ? (
        <Empty>No gate of this run has recorded a baseline yet.</Empty>
      ) : (
        <DataTable testId="baselines" columns={BASELINE_COLUMNS} rows={props.baselines} rowKey={(b) => b.id} />
      )}
    </Section>
  );
}
