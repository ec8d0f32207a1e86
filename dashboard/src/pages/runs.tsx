/**
 * /runs: design-flow runs (`GET /v1/runs`, optional project filter in the address), newest first, with status, the
 * open gate and each run's lifecycle verdict (`GET /v1/runs/{id}/lifecycle`, read per listed run); polled every 3 s.
 */
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/gateway.ts';
import { runEnded, useRuns, type LifecycleView, type RunView } from '../api/runs.ts';
import { Empty, ErrorNote, Loading, Page, StatusBadge, When } from '../ui/common.tsx';
import { DataTable, type Column } from '../ui/data-table.tsx';
import { ProjectCell, ProjectPicker } from '../ui/project-picker.tsx';
import { VerdictBadge } from '../ui/flow-badges.tsx';

const LIMIT = 100;

export function Component() {
  const [params] = useSearchParams();
  const projectId = params.get('project_id') ?? '';
  const runs = useRuns(projectId || undefined, LIMIT);
  const list = runs.data?.runs ?? [];

  return (
    <Page
      title="Runs"
      actions={
        <Link className="button primary" to={`/runs/new${projectId ? `?project_id=${projectId}` : ''}`}>
          New run
        </Link>
      }
    >
      <form className="toolbar" onSubmit={(e) => e.preventDefault()} aria-label="Filter runs">
        <ProjectPicker param="project_id" />
        {runs.data && (
          <span className="muted">
            {runs.data.total > list.length ? `${list.length} newest of ${runs.data.total}` : `${list.length}`} run
            {runs.data.total === 1 ? '' : 's'}
          </span>
        )}
      </form>
      <ErrorNote error={runs.error} prefix="Runs could not be read" />
      {runs.isPending ? (
        <Loading what="runs" />
      ) : !list.length ? (
        <Empty>
          No runs{projectId ? ' in this project' : ''} yet. <Link to="/runs/new">Start one</Link>.
        </Empty>
      ) : (
        <DataTable
          testId="runs-table"
          columns={COLUMNS}
          rows={list}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ 'data-run-id': r.id })}
        />
      )}
    </Page>
  );
}

const COLUMNS: Column<RunView>[] = [
  {
    header: 'Goal',
    cell: (r) => <Link to={`/runs/${r.id}`}>{r.goal.length > 90 ? `${r.goal.slice(0, 87)}…` : r.goal}</Link>,
  },
  { header: 'Flow', cell: (r) => r.design_flow },
  {
    header: 'Project',
    cell: (r) => <ProjectCell id={r.project_id} />,
  },
  { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
  { header: 'Open gate', cell: (r) => (r.gate ? `${r.gate.name}${r.gate.ready ? '' : ' (not ready)'}` : '—') },
  { header: 'Verdict', cell: (r) => <RowVerdict run={r} /> },
  { header: 'Updated', cell: (r) => <When at={r.updated_at} /> },
];

/** A listed run's verdict: read again while the run moves, kept once it ended. */
function RowVerdict(props: { run: RunView }) {
  const ended = runEnded(props.run);
  const q = useQuery({
    queryKey: ['runs', props.run.id, 'lifecycle'],
    queryFn: ({ signal }) => api<LifecycleView>(`/v1/runs/${encodeURIComponent(props.run.id)}/lifecycle`, { signal }),
    refetchInterval: ended ? false : 5_000,
    staleTime: ended ? 60_000 : 2_000,
  });
  if (q.data) return <VerdictBadge verdict={q.data.verdict} />;
  if (q.isError)
    return (
      <span className="muted" title={String((q.error as Error).message)}>
        unreadable
      </span>
    );
  return <span className="muted">…</span>;
}
