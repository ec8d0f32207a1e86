/** `/sessions`: captured agent sessions, newest first (`GET /v1/sessions[?project_id=]`), with a project filter. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { SessionList } from '../../../contracts/sessions.ts';
import { api, qs } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, Page, StatusBadge, UnscopedNote, When } from '../ui/common.tsx';
import { ProjectCell, ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

export function Component() {
  const [project] = useProjectParam();
  const sessions = useQuery({
    queryKey: ['sessions', { project_id: project }],
    queryFn: ({ signal }) => api<SessionList>(`/v1/sessions${qs({ project_id: project, limit: 200 })}`, { signal }),
    refetchInterval: 15_000,
  });
  const list = sessions.data?.sessions ?? [];
  return (
    <Page title="Sessions">
      <div className="toolbar">
        <ProjectPicker />
      </div>
      {sessions.isLoading && <Loading what="sessions" />}
      <ErrorNote error={sessions.error} prefix="Could not load the sessions" />
      <UnscopedNote
        count={(sessions.data as { unscoped_count?: number } | undefined)?.unscoped_count}
        what="sessions"
      />
      {sessions.data && (
        <p className="muted">
          {sessions.data.total} session{sessions.data.total === 1 ? '' : 's'}
          {project ? ' in this project' : ''}
          {sessions.data.total > list.length ? `, the newest ${list.length} shown` : ''}.
        </p>
      )}
      {sessions.data && list.length === 0 && <Empty>No captured agent sessions.</Empty>}
      {list.length > 0 && (
        <table className="grid" data-testid="sessions-table">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Project</th>
              <th scope="col">Client</th>
              <th scope="col" className="num">
                Events
              </th>
              <th scope="col">Started</th>
              <th scope="col">Completed</th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`/sessions/${encodeURIComponent(s.id)}`}>{s.title}</Link>
                </td>
                <td>
                  <StatusBadge status={s.status} />
                </td>
                <td>
                  <ProjectCell id={s.project_id} />
                </td>
                <td>{s.client ?? <span className="muted">—</span>}</td>
                <td className="num">{s.event_count}</td>
                <td>
                  <When at={s.started_at} />
                </td>
                <td>
                  <When at={s.completed_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
