/** `/sessions/:id`: one captured agent session (`GET /v1/sessions/{id}`) and its event timeline, in order. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { SessionWithEvents } from '../../../contracts/sessions.ts';
import { api } from '../api/gateway.ts';
import { ErrorNote, Json, Loading, Page, StatusBadge, When } from '../ui/common.tsx';
import { ProjectCell } from '../ui/project-picker.tsx';

export function Component() {
  const id = useParams().id ?? '';
  const session = useQuery({
    queryKey: ['session', id],
    queryFn: ({ signal }) => api<SessionWithEvents>(`/v1/sessions/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (q) => (q.state.data?.status === 'active' ? 5_000 : false),
  });
  const s = session.data;
  return (
    <Page title={s ? `Session ${s.title}` : 'Session'}>
      <p>
        <Link to="/sessions">All sessions</Link>
      </p>
      {session.isLoading && <Loading what="the session" />}
      <ErrorNote error={session.error} prefix={`Session ${id}`} />
      {s && (
        <>
          <dl className="kv" data-testid="session-detail">
            <dt>Title</dt>
            <dd>{s.title}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={s.status} />
            </dd>
            <dt>Project</dt>
            <dd>
              <ProjectCell id={s.project_id} />
            </dd>
            <dt>Client</dt>
            <dd>{s.client ?? <span className="muted">—</span>}</dd>
            <dt>Started</dt>
            <dd>
              <When at={s.started_at} />
            </dd>
            <dt>Completed</dt>
            <dd>
              <When at={s.completed_at} />
            </dd>
            <dt>Summary</dt>
            <dd>{s.summary ?? <span className="muted">none yet (the session is still active)</span>}</dd>
            <dt>Id</dt>
            <dd>
              <code>{s.id}</code>
            </dd>
          </dl>
          <h2>Events ({s.events.length})</h2>
          {s.events.length === 0 ? (
            <p className="muted">No events logged.</p>
          ) : (
            <ol className="timeline" data-testid="session-events">
              {s.events.map((e) => (
                <li key={e.seq}>
                  <span className="muted">#{e.seq}</span> <When at={e.created_at} /> <StatusBadge status={e.kind} />{' '}
                  {e.message}
                  {Object.keys(e.data).length > 0 && (
                    <details>
                      <summary>data</summary>
                      <Json value={e.data} />
                    </details>
                  )}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </Page>
  );
}
