/**
 * `/knowledge`: ingested sources, newest first (`GET /v1/knowledge/sources[?project_id=]`). The route filters by
 * project only (full-text search is the `knowledge.search` tool, not an HTTP route), so the title filter here narrows
 * the sources already loaded and says so.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { KnowledgeSourceList } from '../../../contracts/knowledge.ts';
import { api, qs } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, Page, UnscopedNote, When } from '../ui/common.tsx';
import { ProjectCell, ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

const LIMIT = 500;

const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

export function Component() {
  const [project] = useProjectParam();
  const [filter, setFilter] = useState('');
  const sources = useQuery({
    queryKey: ['knowledge', 'sources', { project_id: project, limit: LIMIT }],
    queryFn: ({ signal }) =>
      api<KnowledgeSourceList>(`/v1/knowledge/sources${qs({ project_id: project, limit: LIMIT })}`, { signal }),
  });
  const all = sources.data?.sources ?? [];
  const words = filter.trim().toLowerCase();
  const list = words
    ? all.filter((s) => `${s.title} ${s.uri ?? ''} ${s.media_type}`.toLowerCase().includes(words))
    : all;
  return (
    <Page title="Knowledge">
      <div className="toolbar">
        <ProjectPicker />
        <label>
          Filter by title, address or type
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} size={30} />
        </label>
      </div>
      {sources.isLoading && <Loading what="knowledge sources" />}
      <ErrorNote error={sources.error} prefix="Could not load the knowledge sources" />
      <UnscopedNote
        count={(sources.data as { unscoped_count?: number } | undefined)?.unscoped_count}
        what="knowledge sources"
      />
      {sources.data && (
        <p className="muted" role="status">
          {sources.data.total} source{sources.data.total === 1 ? '' : 's'}
          {project ? ' in this project' : ''}
          {sources.data.total > all.length ? ` (the newest ${all.length} loaded)` : ''}
          {words ? `; ${list.length} match the filter` : ''}.
        </p>
      )}
      {sources.data && all.length === 0 && (
        <Empty>No sources ingested{project ? ' for this project' : ''}. Agents add them with knowledge.ingest.</Empty>
      )}
      {list.length > 0 && (
        <table className="grid" data-testid="knowledge-table">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Address</th>
              <th scope="col">Type</th>
              <th scope="col">Project</th>
              <th scope="col" className="num">
                Size
              </th>
              <th scope="col" className="num">
                Chunks
              </th>
              <th scope="col">Ingested</th>
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`/knowledge/sources/${encodeURIComponent(s.id)}`}>{s.title}</Link>
                </td>
                <td>{s.uri ? <code>{s.uri}</code> : <span className="muted">—</span>}</td>
                <td>{s.media_type}</td>
                <td>
                  <ProjectCell id={s.project_id} />
                </td>
                <td className="num">{formatBytes(s.bytes)}</td>
                <td className="num">{s.chunk_count}</td>
                <td>
                  <When at={s.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
