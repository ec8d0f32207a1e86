/** `/sessions`: captured agent sessions, newest first (`GET /v1/sessions[?project_id=]`), with a project filter. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { SessionList } from '../../../contracts/sessions.ts';
import { api, qs } from '../api/gateway.ts';
import { Page, StatusBadge, When } from '../ui/common.tsx';
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';
import { ListState } from '../ui/section.tsx';
import { ProjectCell, ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

type Session = SessionList['sessions'][number];

const COLUMNS: Column<Session>[] = [
  { header: 'Title', cell: (s) => <Link to={`/sessions/${encodeURIComponent(s.id)}`}>{s.title}</Link> },
  { header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
  { header: 'Project', cell: (s) => <ProjectCell id={s.project_id} /> },
  { header: 'Client', cell: (s) => s.client ?? <Missing /> },
  { header: 'Events', num: true, cell: (s) => s.event_count },
  { header: 'Started', cell: (s) => <When at={s.started_at} /> },
  { header: 'Completed', cell: (s) => <When at={s.completed_at} /> },
];

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
      {sessions.data && (
        <p className="muted">
          {sessions.data.total} session{sessions.data.total === 1 ? '' : 's'}
          {project ? ' in this project' : ''}
          {sessions.data.total > list.length ? `, the newest ${list.length} shown` : ''}.
        </p>
      )}
      <ListState
        query={sessions}
        what="sessions"
        prefix="Could not load the sessions"
        count={list.length}
        empty="No captured agent sessions."
      >
        <DataTable testId="sessions-table" columns={COLUMNS} rows={list} rowKey={(r) => r.id} />
      </ListState>
    </Page>
  );
}
