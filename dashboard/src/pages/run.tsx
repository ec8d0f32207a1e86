/**
 * /runs/:id: one design-flow run as it moves (polled about every second until it ends): status and verdict, the phase
 * timeline, the open gate with its findings and the decision form, the decisions with reasons and rework targets,
 * the lifecycle verdict, the run's drafts and revisions, and the baselines its gates recorded. Other runs' items it
 * was started to revise (`revise`) show under its summary with their owners.
 */
import { Link, useParams } from 'react-router';
import {
  runEnded,
  useFlowState,
  useLifecycle,
  useRun,
  useRunBaselines,
  useRunChanges,
  type RunWithUsage,
} from '../api/runs.ts';
import { ErrorNote, Loading, Page, StatusBadge, When } from '../ui/common.tsx';
import { VerdictBadge } from '../ui/flow-badges.tsx';
import { CancelRun } from './run-cancel.tsx';
import { GatePanel } from './run-gate.tsx';
import { RunRevises } from './run-revise.tsx';
import { Baselines, Decisions, Lifecycle, PhaseTimeline, Revisions } from './run-sections.tsx';

export function Component() {
  const id = useParams().id ?? '';
  const run = useRun(id);
  const ended = runEnded(run.data);
  const flow = useFlowState(id, ended);
  const lifecycle = useLifecycle(id, ended, run.isSuccess);
  const changes = useRunChanges(id, ended);
  const baselines = useRunBaselines(run.data, ended);

  if (run.isPending) return <Loading what="the run" />;
  if (!run.data) {
    return (
      <Page title="Run">
        <ErrorNote error={run.error} prefix={`Run ${id} could not be read`} />
        <Link to="/runs">All runs</Link>
      </Page>
    );
  }
  const r = run.data;
  return (
    <Page title={`Run ${r.id.replace(/^run_/, '').slice(0, 8)}`} actions={<Link to="/runs">All runs</Link>}>
      <ErrorNote error={run.error} prefix="Refresh failed (showing the last answer)" />
      <Summary run={r} verdict={lifecycle.data?.verdict} />
      <RunRevises runId={r.id} revise={r.revise} />
      {r.ended && (
        <div className={`note ${r.ended.status === 'completed' ? '' : 'error'}`} data-testid="run-ended">
          Ended {r.ended.status}
          {r.ended.kind ? ` (${r.ended.kind})` : ''}: {r.ended.message}
        </div>
      )}
      <div className="split">
        <PhaseTimeline run={r} flow={flow.data} lifecycle={lifecycle.data} />
        <div>
          <GatePanel run={r} ended={ended} />
          {!ended && <CancelRun run={r} />}
          {lifecycle.data ? (
            <Lifecycle lifecycle={lifecycle.data} />
          ) : (
            <ErrorNote error={lifecycle.error} prefix="The lifecycle could not be read" />
          )}
        </div>
      </div>
      <Decisions decisions={r.decisions} />
      {changes.data ? (
        <Revisions changes={changes.data} />
      ) : (
        <ErrorNote error={changes.error} prefix="The run's revisions could not be read" />
      )}
      {baselines.data ? (
        <Baselines baselines={baselines.data} />
      ) : (
        <ErrorNote error={baselines.error} prefix="Baselines could not be read" />
      )}
      <ErrorNote error={flow.error} prefix="The flow state could not be read" />
    </Page>
  );
}

function Summary(props: { run: RunWithUsage; verdict: string | undefined }) {
  const r = props.run;
  const u = r.usage;
  return (
    <dl className="kv" data-testid="run-summary">
      <dt>Goal</dt>
      <dd>{r.goal}</dd>
      <dt>Status</dt>
      <dd>
        <span data-testid="run-status">
          <StatusBadge status={r.status} />
        </span>{' '}
        verdict <VerdictBadge verdict={props.verdict ?? '…'} testId="run-verdict-summary" />
      </dd>
      <dt>Flow</dt>
      <dd>
        {r.design_flow} <span className="muted mono">{r.version_id}</span>
      </dd>
      <dt>Project</dt>
      <dd>{r.project_id ? <Link to={`/projects/${r.project_id}`}>{r.project_id}</Link> : 'none'}</dd>
      <dt>Started / updated</dt>
      <dd>
        <When at={r.created_at} /> / <When at={r.updated_at} />
      </dd>
      <dt>Reworks</dt>
      <dd>{r.reworks}</dd>
      <dt>Model usage</dt>
      <dd>
        {u.calls} calls, {u.tokens.prompt + u.tokens.completion} tokens,{' '}
        {u.cost_usd === null ? 'cost not priced' : `$${u.cost_usd.toFixed(4)}`}
        {u.calls_without_usage || u.calls_unpriced ? ' (a lower bound)' : ''}
      </dd>
    </dl>
  );
}
