/**
 * `/twin`: the digital twin. The current view (`GET /v1/twin/current-view[?project_id=]`, head revision of every item
 * grouped by type); choosing an item (`item` search param) opens its revisions, a diff of two of them and the head
 * node's relationships (twin-item.tsx); the baselines and their diff follow (twin-baselines.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { CurrentView } from '../../../contracts/twin-views.ts';
import { api, qs } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, Page, UnscopedNote, When } from '../ui/common.tsx';
import { ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';
import { TwinBaselines } from './twin-baselines.tsx';
import { TwinItem } from './twin-item.tsx';

export function Component() {
  const [project] = useProjectParam();
  const [params, setParams] = useSearchParams();
  const selected = params.get('item') ?? '';
  const select = (key: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set('item', key);
      return next;
    });
  const view = useQuery({
    queryKey: ['twin', 'current-view', { project_id: project }],
    queryFn: ({ signal }) => api<CurrentView>(`/v1/twin/current-view${qs({ project_id: project })}`, { signal }),
  });
  const groups = Object.entries(view.data?.by_type ?? {});
  return (
    <Page title="Twin">
      <div className="toolbar">
        <ProjectPicker />
      </div>
      <div className="split twin-split">
        <section aria-labelledby="twin-current-h">
          <h2 id="twin-current-h" style={{ marginTop: 0 }}>
            Current items{view.data ? ` (${view.data.item_count})` : ''}
          </h2>
          {view.isLoading && <Loading what="the current view" />}
          <ErrorNote error={view.error} prefix="Could not load the current view" />
          <UnscopedNote count={(view.data as { unscoped_count?: number } | undefined)?.unscoped_count} what="items" />
          {view.data && groups.length === 0 && <Empty>No items{project ? ' in this project' : ''} yet.</Empty>}
          {groups.length > 0 && (
            <table className="grid" data-testid="twin-items">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Name</th>
                  <th scope="col">Head rev</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              {groups.map(([type, entries]) => (
                <tbody key={type}>
                  <tr>
                    <th scope="rowgroup" colSpan={4} style={{ background: 'var(--bg-3)' }}>
                      {type} ({entries.length})
                    </th>
                  </tr>
                  {entries.map((e) => (
                    <tr key={e.key} className={e.key === selected ? 'selected' : undefined}>
                      <td>
                        <button
                          type="button"
                          className="linklike"
                          aria-pressed={e.key === selected}
                          onClick={() => select(e.key)}
                        >
                          <code>{e.key}</code>
                        </button>
                      </td>
                      <td>{e.name}</td>
                      <td>
                        <code title={e.ref}>@{e.revision}</code> {e.stale && <span className="badge warn">stale</span>}
                      </td>
                      <td>
                        <When at={e.updated_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          )}
        </section>
        <section aria-labelledby="twin-item-h">
          <h2 id="twin-item-h" style={{ marginTop: 0 }}>
            {selected ? `Item ${selected}` : 'Item'}
          </h2>
          {selected ? <TwinItem itemKey={selected} /> : <Empty>Choose an item on the left to see its history.</Empty>}
        </section>
      </div>
      <TwinBaselines project={project} />
    </Page>
  );
}
