/**
 * /sim: simulation results (GET /v1/simulation/results, filtered by project) and the 3D field viewer of one result
 * (`?result=<id>`, field from GET /v1/simulation/results/{id}/field). The viewer module (three.js) is imported only
 * when a result is opened; its import starts together with the field's fetch.
 */
import { lazy, Suspense, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useProjects } from '../api/projects.ts';
import { ProjectCell, ProjectPicker } from '../ui/project-picker.tsx';
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';
import { num, useSimResults, type SimResultEntry } from '../api/sim.ts';
import { ApiError } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, Page, StatusBadge, UnscopedNote, When } from '../ui/common.tsx';
import { fetchField, fmt } from '../viewer/field-data.ts';

const loadViewer = () => import('../viewer/FieldViewer.tsx');
const FieldViewer = lazy(loadViewer);

export function Component() {
  const [params] = useSearchParams();
  const projectId = params.get('project') ?? '';
  const resultId = params.get('result') ?? '';
  const projects = useProjects();
  const results = useSimResults(projectId);
  const selected = results.data?.results.find((r) => r.id === resultId);

  return (
    <Page title="Simulation results" actions={<ProjectPicker />}>
      <ErrorNote error={projects.error} prefix="Projects" />
      {results.isPending && <Loading what="results" />}
      <ErrorNote error={results.error} prefix="Results" />
      {projectId && <UnscopedNote count={results.data?.unscoped_count} what="simulation results" />}
      {results.data && results.data.results.length === 0 && (
        <Empty>No simulation results{projectId ? ' in this project' : ''} yet.</Empty>
      )}
      {results.data && results.data.results.length > 0 && (
        <ResultTable results={results.data.results} total={results.data.total} selected={resultId} />
      )}
      {resultId && <ResultView id={resultId} entry={selected} />}
    </Page>
  );
}

function ResultTable(props: { results: SimResultEntry[]; total: number; selected: string }) {
  const [params] = useSearchParams();
  const href = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('result', id);
    return `?${next.toString()}`;
  };
  return (
    <>
      <p className="muted">
        {props.total} result{props.total === 1 ? '' : 's'}
        {props.total > props.results.length ? `, newest ${props.results.length} shown` : ''}
      </p>
      <DataTable
        columns={resultColumns(href, props.selected)}
        rows={props.results}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ className: r.id === props.selected ? 'selected' : undefined })}
      />
    </>
  );
}

const resultColumns = (href: (id: string) => string, selected: string): Column<SimResultEntry>[] => [
  {
    header: 'Result',
    cell: (r) => (
      <Link to={href(r.id)} aria-current={r.id === selected ? 'true' : undefined}>
        {r.name || r.id}
      </Link>
    ),
  },
  { header: 'Project', cell: (r) => <ProjectCell id={r.project_id} /> },
  { header: 'Analysis', cell: (r) => r.analysisType ?? <Missing /> },
  { header: 'Max von Mises', cell: (r) => numberCell(num(r.max_von_mises_mpa), 'MPa') },
  { header: 'Max displacement', cell: (r) => numberCell(num(r.max_displacement_mm), 'mm') },
  {
    header: 'Field',
    cell: (r) => (r.hasField ? r.fieldQuantities.join(', ') : <span className="muted">not stored</span>),
  },
  {
    header: 'Analysed geometry',
    cell: (r) => (
      <>
        {r.analysedGeometry ? (r.analysedGeometry.ref ?? r.analysedGeometry.name) : <Missing />}
        {r.stale && (
          <>
            {' '}
            <StatusBadge status="stale" />
          </>
        )}
        {r.suspect.length > 0 && (
          <span data-testid="sim-suspect" title={r.suspect.join('; ')}>
            {' '}
            <StatusBadge status="suspect" />
          </span>
        )}
      </>
    ),
  },
  { header: 'Recorded', cell: (r) => <When at={r.created_at} /> },
];

const numberCell = (v: number | undefined, unit: string) => (v === undefined ? <Missing /> : `${fmt(v)} ${unit}`);

function ResultView(props: { id: string; entry: SimResultEntry | undefined }) {
  const { id, entry } = props;
  useEffect(() => {
    if (entry?.hasField !== false) void loadViewer();
  }, [entry?.hasField]);
  const field = useQuery({
    queryKey: ['sim-field', id],
    queryFn: ({ signal }) => fetchField(id, signal),
    enabled: entry?.hasField !== false,
    staleTime: Infinity,
    retry: false,
  });
  const notStored = field.error instanceof ApiError && field.error.status === 404;
  const recordedPeak = {
    von_mises: num(entry?.max_von_mises_mpa),
    displacement_magnitude: num(entry?.max_displacement_mm),
  };
  return (
    <section aria-labelledby="result-heading">
      <h2 id="result-heading">{entry?.name ?? `Result ${id}`}</h2>
      {entry && (
        <dl className="kv">
          <dt>Load case</dt>
          <dd>{typeof entry.load_case === 'string' ? entry.load_case : <span className="muted">—</span>}</dd>
          {entry.suspect.length > 0 && (
            <>
              <dt>Suspect</dt>
              <dd data-testid="sim-suspect-reasons">{entry.suspect.join('; ')}</dd>
            </>
          )}
          {entry.analysedGeometry && (
            <>
              <dt>Analysed geometry</dt>
              <dd>
                {entry.analysedGeometry.name} {entry.analysedGeometry.ref ? `(${entry.analysedGeometry.ref})` : ''}{' '}
                {entry.stale && <span className="muted">stale: {entry.staleReason ?? 'a newer revision exists'}</span>}
              </dd>
            </>
          )}
          {entry.meshConvergence && 'converged' in entry.meshConvergence && (
            <>
              <dt>Mesh convergence</dt>
              <dd>
                {entry.meshConvergence.converged ? 'converged' : 'not converged'}:{' '}
                {String(entry.meshConvergence.recommendation ?? '')}
              </dd>
            </>
          )}
        </dl>
      )}
      {(entry?.hasField === false || notStored) && (
        <div className="note">This result has no stored field (field not stored): there is nothing to show in 3D.</div>
      )}
      {field.isPending && field.fetchStatus !== 'idle' && <Loading what="field" />}
      {!notStored && <ErrorNote error={field.error} prefix="Field" />}
      {field.data && (
        <Suspense fallback={<Loading what="3D viewer" />}>
          <FieldViewer field={field.data} recordedPeak={recordedPeak} />
        </Suspense>
      )}
    </section>
  );
}
