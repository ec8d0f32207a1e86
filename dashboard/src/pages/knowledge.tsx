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
import { Page, When } from '../ui/common.tsx';
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';
import { ListState } from '../ui/section.tsx';
import { ProjectCell, ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

const LIMIT = 500;

const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

type Source = KnowledgeSourceList['sources'][number];

const COLUMNS: Column<Source>[] = [
  { header: 'Title', cell: (s) => <Link to={`/knowledge/sources/${encodeURIComponent(s.id)}`}>{s.title}</Link> },
  { header: 'Address', cell: (s) => (s.uri ? <code>{s.uri}</code> : <Missing />) },
  { header: 'Type', cell: (s) => s.media_type },
  { header: 'Project', cell: (s) => <ProjectCell id={s.project_id} /> },
  { header: 'Size', num: true, cell: (s) => formatBytes(s.bytes) },
  { header: 'Chunks', num: true, cell: (s) => s.chunk_count },
  { header: 'Ingested', cell: (s) => <When at={s.created_at} /> },
];

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
      {sources.data && (
        <p className="muted" role="status">
          {sources.data.total} source{sources.data.total === 1 ? '' : 's'}
          {project ? ' in this project' : ''}
          {sources.data.total > all.length ? ` (the newest ${all.length} loaded)` : ''}
          {words ? `; ${list.length} match the filter` : ''}.
        </p>
      )}
      <ListState
        query={sources}
        what="knowledge sources"
        prefix="Could not load the knowledge sources"
        count={all.length}
        empty={`No sources ingested${project ? ' for this project' : ''}. Agents add them with knowledge.ingest.`}
      >
        {list.length > 0 && <DataTable testId="knowledge-table" columns={COLUMNS} rows={list} rowKey={(r) => r.id} />}
      </ListState>
    </Page>
  );
}
