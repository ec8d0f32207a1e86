/**
 * /sim: simulation results (GET /v1/simulation/results, filtered by project) and the 3D field viewer of one result
 * (`?result=<id>`, field from GET /v1/simulation/results/{id}/field). The viewer module (three.js) is imported only
 * when a result is opened; its import starts together with the field's fetch.
 */
import { lazy, Suspense, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useProjects } from '../api/projects.ts';
import { ProjectPicker } from '../ui/project-picker.tsx';
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
  const names = new Map(projects.data?.projects.map((p) => [p.id, p.name]));

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
        <ResultTable results={results.data.results} total={results.data.total} names={names} selected={resultId} />
      )}
      {resultId && <ResultView id={resultId} entry={selected} />}
    </Page>
  );
}

function ResultTable(props: {
  results: SimResultEntry[];
  total: number;
  names: Map<string, string>;
  selected: string;
}) {
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
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Result</th>
            <th scope="col">Project</th>
            <th scope="col">Analysis</th>
            <th scope="col">Max von Mises</th>
            <th scope="col">Max displacement</th>
            <th scope="col">Field</th>
            <th scope="col">Analysed geometry</th>
            <th scope="col">Recorded</th>
          </tr>
        </thead>
        <tbody>
          {props.results.map((r) => (
            <tr key={r.id} className={r.id === props.selected ? 'selected' : undefined}>
              <td>
                <Link to={href(r.id)} aria-current={r.id === props.selected ? 'true' : undefined}>
                  {r.name || r.id}
                </Link>
              </td>
              <td>
                {r.project_id ? (props.names.get(r.project_id) ?? r.project_id) : <span className="muted">none</span>}
              </td>
              <td>{r.analysisType ?? <span className="muted">—</span>}</td>
              <td>{numberCell(num(r.max_von_mises_mpa), 'MPa')}</td>
              <td>{numberCell(num(r.max_displacement_mm), 'mm')}</td>
              <td>{r.hasField ? r.fieldQuantities.join(', ') : <span className="muted">not stored</span>}</td>
              <td>
                {r.analysedGeometry ? (
                  (r.analysedGeometry.ref ?? r.analysedGeometry.name)
                ) : (
                  <span className="muted">—</span>
                )}
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
              </td>
              <td>
                <When at={r.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const numberCell = (v: number | undefined, unit: string) =>
  v === undefined ? <span className="muted">—</span> : `${fmt(v)} ${unit}`;

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
