/**
 * /files: work-product files. The twin's nodes (GET /v1/twin/nodes, filtered by project and node type, newest first)
 * that carry a stored file (an object key): download through GET /v1/twin/nodes/{id}/file; a committed CAD model
 * (cad_model) previews in 3D from GET /v1/twin/nodes/{id}/model (`?model=<id>`; three.js loads only then).
 */
import { lazy, Suspense } from 'react';
import { Link, useSearchParams } from 'react-router';
import { gatewayUrl } from '../api/gateway.ts';
import { useTwinNodes, type TwinNode } from '../api/sim.ts';
import { useProjects } from '../api/projects.ts';
import { Empty, ErrorNote, Loading, Page, StatusBadge, When } from '../ui/common.tsx';
import { DataTable, type Column } from '../ui/data-table.tsx';
import { ProjectCell, ProjectPicker } from '../ui/project-picker.tsx';

const ModelViewer = lazy(() => import('../viewer/ModelViewer.tsx'));
const PAGE = 200;
const COMMON_TYPES = ['cad_model', 'document', 'simulation_result', 'sketch', 'technical_drawing'];

/** A model the gateway can convert: a cad_model with a stored file that is a record or a committed revision. */
const previewable = (n: TwinNode) =>
  n.node_type === 'cad_model' &&
  !!n.object_key &&
  (n.revision_status === null || n.revision_status === 'committed' || n.revision_status === 'approved');

export function Component() {
  const [params, setParams] = useSearchParams();
  const projectId = params.get('project') ?? '';
  const nodeType = params.get('type') ?? '';
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const modelId = params.get('model') ?? '';
  const projects = useProjects();
  const nodes = useTwinNodes({ projectId, nodeType, offset, limit: PAGE });
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };
  const withFiles = nodes.data?.nodes.filter((n) => n.object_key) ?? [];
  const types = [...new Set([...COMMON_TYPES, ...(nodes.data?.nodes.map((n) => n.node_type) ?? []), nodeType])]
    .filter(Boolean)
    .sort();
  const model = nodes.data?.nodes.find((n) => n.id === modelId);

  return (
    <Page
      title="Files"
      actions={
        <div className="toolbar" style={{ margin: 0 }}>
          <ProjectPicker reset={['offset']} />
          <label>
            Type{' '}
            <select value={nodeType} onChange={(e) => set({ type: e.target.value, offset: '' })}>
              <option value="">All types</option>
              {types.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
        </div>
      }
    >
      <ErrorNote error={projects.error} prefix="Projects" />
      {nodes.isPending && <Loading what="work products" />}
      <ErrorNote error={nodes.error} prefix="Work products" />
      {nodes.data && (
        <p className="muted">
          {withFiles.length} of the {nodes.data.nodes.length} work products on this page carry a file (nodes{' '}
          {nodes.data.total ? offset + 1 : 0}–{offset + nodes.data.nodes.length} of {nodes.data.total}).
        </p>
      )}
      {nodes.data && withFiles.length === 0 && <Empty>No work-product files here.</Empty>}
      {withFiles.length > 0 && (
        <DataTable
          columns={fileColumns(params)}
          rows={withFiles}
          rowKey={(n) => n.id}
          rowProps={(n) => ({ className: n.id === modelId ? 'selected' : undefined })}
        />
      )}
      {nodes.data && (offset > 0 || offset + nodes.data.nodes.length < nodes.data.total) && (
        <div className="toolbar">
          <button type="button" disabled={offset === 0} onClick={() => set({ offset: String(offset - PAGE) })}>
            Previous page
          </button>
          <button
            type="button"
            disabled={offset + nodes.data.nodes.length >= nodes.data.total}
            onClick={() => set({ offset: String(offset + PAGE) })}
          >
            Next page
          </button>
        </div>
      )}
      {modelId && (
        <section aria-labelledby="model-heading">
          <h2 id="model-heading">{model ? `${fileName(model)} in 3D` : 'Model in 3D'}</h2>
          <Suspense fallback={<Loading what="3D viewer" />}>
            <ModelViewer nodeId={modelId} name={model ? fileName(model) : modelId} />
          </Suspense>
        </section>
      )}
    </Page>
  );
}

const fileColumns = (params: URLSearchParams): Column<TwinNode>[] => [
  { header: 'File', cell: (n) => fileName(n) },
  { header: 'Type', cell: (n) => n.node_type },
  {
    header: 'Revision',
    cell: (n) => (
      <>
        {n.item_ref ?? <span className="muted">record</span>}{' '}
        {n.revision_status && <StatusBadge status={n.revision_status} />}
        {n.stale && <StatusBadge status="stale" />}
      </>
    ),
  },
  { header: 'Project', cell: (n) => <ProjectCell id={n.project_id} /> },
  { header: 'Size', cell: (n) => sizeOf(n) },
  { header: 'Recorded', cell: (n) => <When at={n.created_at} /> },
  {
    header: 'Actions',
    cell: (n) => (
      <span className="toolbar" style={{ margin: 0 }}>
        <a href={gatewayUrl(`/v1/twin/nodes/${n.id}/file`)} download={fileName(n)}>
          Download<span className="visually-hidden"> {fileName(n)}</span>
        </a>
        {previewable(n) && (
          <Link to={`?${withParam(params, 'model', n.id)}`}>
            Preview 3D<span className="visually-hidden"> of {fileName(n)}</span>
          </Link>
        )}
      </span>
    ),
  },
];

function withParam(params: URLSearchParams, k: string, v: string): string {
  const next = new URLSearchParams(params);
  next.set(k, v);
  return next.toString();
}

function fileName(n: TwinNode): string {
  const p = n.properties;
  if (typeof p.file_name === 'string' && p.file_name) return p.file_name;
  return n.object_key?.split('/').pop() || n.name;
}

function sizeOf(n: TwinNode): string {
  const p = n.properties;
  const bytes = [p.size_bytes, p.file_size_bytes, p.size].find((v): v is number => typeof v === 'number');
  if (bytes === undefined) return '—';
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1 << 20
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / (1 << 20)).toFixed(1)} MB`;
}
