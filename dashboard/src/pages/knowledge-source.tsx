/** `/knowledge/sources/:id`: one ingested source with its full text (`GET /v1/knowledge/sources/{id}`). */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { KnowledgeSourceWithText } from '../../../contracts/knowledge.ts';
import { api } from '../api/gateway.ts';
import { ErrorNote, Loading, Page, When } from '../ui/common.tsx';
import { ProjectCell } from '../ui/project-picker.tsx';

const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

export function Component() {
  const id = useParams().id ?? '';
  const source = useQuery({
    queryKey: ['knowledge', 'source', id],
    queryFn: ({ signal }) =>
      api<KnowledgeSourceWithText>(`/v1/knowledge/sources/${encodeURIComponent(id)}`, { signal }),
  });
  const s = source.data;
  return (
    <Page title={s ? `Source ${s.title}` : 'Knowledge source'}>
      <p>
        <Link to="/knowledge">All sources</Link>
      </p>
      {source.isLoading && <Loading what="the source" />}
      <ErrorNote error={source.error} prefix={`Source ${id}`} />
      {s && (
        <>
          <dl className="kv" data-testid="source-detail">
            <dt>Title</dt>
            <dd>{s.title}</dd>
            <dt>Address</dt>
            <dd>{s.uri ? <code>{s.uri}</code> : <span className="muted">none</span>}</dd>
            <dt>Type</dt>
            <dd>{s.media_type}</dd>
            <dt>Project</dt>
            <dd>
              <ProjectCell id={s.project_id} />
            </dd>
            <dt>Size</dt>
            <dd>
              {formatBytes(s.bytes)} in {s.chunk_count} chunk{s.chunk_count === 1 ? '' : 's'}
            </dd>
            <dt>SHA-256</dt>
            <dd>
              <code>{s.content_sha256}</code>
            </dd>
            <dt>Ingested</dt>
            <dd>
              <When at={s.created_at} />
            </dd>
          </dl>
          <h2>Text</h2>
          <pre
            className="json"
            data-testid="source-text"
            tabIndex={0}
            aria-label="Source text"
            style={{ whiteSpace: 'pre-wrap', maxHeight: 600 }}
          >
            {s.text}
          </pre>
        </>
      )}
    </Page>
  );
}
