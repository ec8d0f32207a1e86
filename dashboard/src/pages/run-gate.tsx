/**
 * The run's open gate: the run view's gate (findings, ready, caps) and its queue item `gate:<run_id>` (read through
 * the approvals API with the dashboard surface header), decided here through the unified route with the item's ETag.
 */
import { Link } from 'react-router';
import { useApproval } from '../api/approvals.ts';
import type { RunView } from '../api/runs.ts';
import { DecisionForm } from '../ui/decision-form.tsx';
import { ErrorNote, When } from '../ui/common.tsx';
import { VerdictTable } from '../ui/verdict-table.tsx';
import { Findings } from './approvals-detail.tsx';
import { Section } from '../ui/section.tsx';

export function GatePanel(props: { run: RunView; ended: boolean }) {
  const { run } = props;
  const gate = run.gate;
  const item = useApproval(props.ended && !gate ? undefined : `gate:${run.id}`, props.ended ? false : 1_000);
  return (
    <Section id="gate-h" testId="gate-panel" panel title="Open gate">
      {gate ? (
        <>
          <p data-testid="gate-name">
            <strong>{gate.name}</strong> (phase {gate.phase}, attempt {gate.attempt}) opened{' '}
            <When at={gate.opened_at} />
          </p>
          <p>
            {gate.ready ? (
              <span className="badge ok">ready</span>
            ) : (
              <span className="badge warn">not ready: approve is offered once the findings are cleared</span>
            )}{' '}
            {gate.stalled && <span className="badge bad">stalled</span>}{' '}
            <span className="muted">
              retries left {gate.retries_left}, reworks left {gate.reworks_left}
            </span>
          </p>
          {gate.conflict && <div className="note warn">Conflict: {gate.conflict}</div>}
          <Findings findings={gate.findings} />
          {item.data && <VerdictTable item={item.data} />}
        </>
      ) : (
        <p className="muted" data-testid="no-gate">
          {props.ended ? 'The run has ended: no gate is open.' : 'No gate is open: the run is working on a phase.'}
        </p>
      )}
      <ErrorNote error={item.error} prefix="The gate's queue item could not be read" />
      {item.data && (item.data.status === 'pending' || gate) && (
        <>
          <h3>Decide</h3>
          <DecisionForm item={item.data} />
          <p className="muted">
            Also in the <Link to={`/approvals?id=${encodeURIComponent(`gate:${run.id}`)}`}>approvals queue</Link>.
          </p>
        </>
      )}
    </Section>
  );
}
