/**
 * /runs: design-flow runs (`GET /v1/runs`, optional project filter in the address), newest first, with status, the
 * open gate and each run's lifecycle verdict (`GET /v1/runs/{id}/lifecycle`, read per listed run); polled every 3 s.
 */
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/gateway.ts';
import { useProjects } from '../api/projects.ts';
import { runEnded, useRuns, type LifecycleView, type RunView } from '../api/runs.ts';
import { Empty, ErrorNote, Loading, Page, StatusBadge, When } from '../ui/common.tsx';
import { VerdictBadge } from '../ui/flow-badges.tsx';

const LIMIT = 100;

export function Component() {
  const [params, setParams] = useSearchParams();
  const projectId = params.get('project_id') ?? '';
  const runs = useRuns(projectId || undefined, LIMIT);
  const projects = useProjects();
  const names = useMemo(() => new Map((projects.data?.projects ?? []).map((p) => [p.id, p.name])), [projects.data]);
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
        <label>
          Project
          <select
            value={projectId}
            onChange={(e) => setParams(e.target.value ? { project_id: e.target.value } : {}, { replace: true })}
          >
            <option value="">All projects</option>
            {projectId && !names.has(projectId) && <option value={projectId}>{projectId}</option>}
            {(projects.data?.projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
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
        <table className="grid" data-testid="runs-table">
          <thead>
            <tr>
              <th scope="col">Goal</th>
              <th scope="col">Flow</th>
              <th scope="col">Project</th>
              <th scope="col">Status</th>
              <th scope="col">Open gate</th>
              <th scope="col">Verdict</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id} data-run-id={r.id}>
                <td>
                  <Link to={`/runs/${r.id}`}>{r.goal.length > 90 ? `${r.goal.slice(0, 87)}…` : r.goal}</Link>
                </td>
                <td>{r.design_flow}</td>
                <td>
                  {r.project_id ? (names.get(r.project_id) ?? r.project_id) : <span className="muted">none</span>}
                </td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>{r.gate ? `${r.gate.name}${r.gate.ready ? '' : ' (not ready)'}` : '—'}</td>
                <td>
                  <RowVerdict run={r} />
                </td>
                <td>
                  <When at={r.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

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
