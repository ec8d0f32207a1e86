/**
 * /approvals: the unified queue (SPEC "Approvals"): status, project and kind filters in the address, the list (polled
 * every 4 s), the selected item's detail and decision form beside it. The API answers the whole list, so the table
 * renders it in slices ("Show more"): 10,000 pending items cost 200 rows of DOM, not 10,000.
 */
import { memo, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { APPROVAL_KINDS, filtersOf, useApprovals, type ApprovalItem, type StatusFilter } from '../api/approvals.ts';
import { useProjects } from '../api/projects.ts';
import { ProjectPicker } from '../ui/project-picker.tsx';
import { Empty, ErrorNote, Loading, Page, StatusBadge, UnscopedNote } from '../ui/common.tsx';
import { ApprovalDetail } from './approvals-detail.tsx';
import { Section } from '../ui/section.tsx';

const SLICE = 200;
const STATUSES: StatusFilter[] = ['pending', 'decided', 'all'];

export function Component() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const { status } = filters;
  const projectId = filters.projectId ?? '';
  const kind = filters.kind ?? '';
  const selected = params.get('id') ?? '';
  const [shown, setShown] = useState(SLICE);
  const list = useApprovals(filters);
  const projects = useProjects();
  const names = useMemo(() => new Map((projects.data?.projects ?? []).map((p) => [p.id, p.name])), [projects.data]);

  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
    setShown(SLICE);
  };
  const linkTo = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('id', id);
    return `?${next.toString()}`;
  };

  const items = list.data?.items ?? [];
  return (
    <Page title="Approvals">
      <form className="toolbar" onSubmit={(e) => e.preventDefault()} aria-label="Filter the queue">
        <label>
          Status
          <select value={status} onChange={(e) => set('status', e.target.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <ProjectPicker param="project_id" onChange={() => setShown(SLICE)} />
        <label>
          Kind
          <select value={kind} onChange={(e) => set('kind', e.target.value)}>
            <option value="">All kinds</option>
            {APPROVAL_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <span className="muted" role="status" data-testid="approvals-count">
          {list.data ? `${items.length} item${items.length === 1 ? '' : 's'}` : ''}
          {list.isFetching ? ' · refreshing' : ''}
        </span>
      </form>
      {projectId && <UnscopedNote count={list.data?.unscoped_count} what="approval items" />}
      <ErrorNote error={list.error} prefix="The queue could not be read" />
      <div className="split">
        <Section id="queue-h" title="Queue">
          {list.isPending ? (
            <Loading what="the queue" />
          ) : !items.length ? (
            <Empty>No {status === 'all' ? '' : `${status} `}items.</Empty>
          ) : (
            <>
              <table className="grid" data-testid="approvals-table">
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Status</th>
                    <th scope="col">Project</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {items.slice(0, shown).map((it) => (
                    <Row
                      key={it.id}
                      item={it}
                      to={linkTo(it.id)}
                      project={it.project_id ? (names.get(it.project_id) ?? it.project_id) : ''}
                      selected={it.id === selected}
                    />
                  ))}
                </tbody>
              </table>
              {items.length > shown && (
                <p className="toolbar">
                  <span className="muted">
                    Showing {shown} of {items.length}.
                  </span>
                  <button type="button" onClick={() => setShown((n) => n + SLICE * 5)}>
                    Show more
                  </button>
                </p>
              )}
            </>
          )}
        </Section>
        <div>{selected ? <ApprovalDetail id={selected} /> : <Empty>Choose an item to see it and decide.</Empty>}</div>
      </div>
    </Page>
  );
}

/** One row, re-rendered only when its item (kept by identity across polls) or selection changes. */
const Row = memo(function Row(props: { item: ApprovalItem; to: string; project: string; selected: boolean }) {
  const it = props.item;
  return (
    <tr className={props.selected ? 'selected' : undefined}>
      <td data-label="Item">
        <Link to={props.to} aria-current={props.selected ? 'true' : undefined}>
          {it.title}
        </Link>
      </td>
      <td data-label="Kind">{it.kind}</td>
      <td data-label="Status">
        <StatusBadge status={it.status} />
      </td>
      <td data-label="Project">{props.project || <span className="muted">none</span>}</td>
      <td data-label="Created">
        <time dateTime={it.created_at ?? undefined}>
          {it.created_at ? it.created_at.slice(0, 19).replace('T', ' ') : '—'}
        </time>
      </td>
    </tr>
  );
});
