/**
 * `/compliance`: pick a project, then its checklist, coverage and evidence (`GET /v1/compliance/{project_id}/checklist`,
 * `/coverage`, `/evidence`). A gateway without these routes answers 404 "no route": the page says so in words.
 * The spec gives the checklist and coverage fields but not the item or evidence shapes, so those are shown as sent.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, Page } from '../ui/common.tsx';
import { isRouteMissing, NotServed } from '../ui/not-served.tsx';
import { ProjectPicker, useProjectParam } from '../ui/project-picker.tsx';

interface Coverage {
  project_id: string;
  total_items: number;
  evidenced_items: number;
  coverage_percent: number;
}
interface Checklist extends Coverage {
  target_markets?: unknown;
  items?: unknown;
}

function useCompliance<T>(project: string, part: 'checklist' | 'coverage' | 'evidence') {
  return useQuery({
    queryKey: ['compliance', part, project],
    queryFn: ({ signal }) => api<T>(`/v1/compliance/${encodeURIComponent(project)}/${part}`, { signal }),
    enabled: project !== '',
  });
}

export function Component() {
  const [project] = useProjectParam();
  const checklist = useCompliance<Checklist>(project, 'checklist');
  const coverage = useCompliance<Coverage>(project, 'coverage');
  const evidence = useCompliance<unknown>(project, 'evidence');
  const missing = [checklist, coverage, evidence].some((q) => isRouteMissing(q.error));
  return (
    <Page title="Compliance">
      <div className="toolbar">
        <ProjectPicker allowAll={false} />
      </div>
      {!project && <Empty>Choose a project to see its compliance checklist, coverage and evidence.</Empty>}
      {project && missing && (
        <NotServed path="/v1/compliance/{project_id}/…" what="compliance (checklist, coverage, evidence)" />
      )}
      {project && !missing && (
        <>
          <h2>Coverage</h2>
          {coverage.isLoading && <Loading what="coverage" />}
          <ErrorNote error={coverage.error} prefix="Coverage" />
          {coverage.data && (
            <dl className="kv" data-testid="compliance-coverage">
              <dt>Items</dt>
              <dd>{coverage.data.total_items}</dd>
              <dt>With evidence</dt>
              <dd>{coverage.data.evidenced_items}</dd>
              <dt>Coverage</dt>
              <dd>
                <meter min={0} max={100} value={coverage.data.coverage_percent} aria-label="Coverage percent" />{' '}
                {coverage.data.coverage_percent}%
              </dd>
            </dl>
          )}
          <h2>Checklist</h2>
          {checklist.isLoading && <Loading what="the checklist" />}
          <ErrorNote error={checklist.error} prefix="Checklist" />
          {checklist.data && (
            <>
              <p>
                Target markets: <Value v={checklist.data.target_markets} />
              </p>
              <Rows rows={checklist.data.items} empty="The checklist has no items." />
            </>
          )}
          <h2>Evidence</h2>
          {evidence.isLoading && <Loading what="evidence" />}
          <ErrorNote error={evidence.error} prefix="Evidence" />
          {evidence.data !== undefined && <Rows rows={listOf(evidence.data)} empty="No evidence recorded." />}
        </>
      )}
    </Page>
  );
}

/** The list inside an answer: the answer itself, or its first array-valued field. */
function listOf(v: unknown): unknown {
  if (Array.isArray(v) || !v || typeof v !== 'object') return v;
  return Object.values(v).find(Array.isArray) ?? [v];
}

function Value(props: { v: unknown }) {
  const v = props.v;
  if (v === null || v === undefined || v === '') return <span className="muted">—</span>;
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) return <>{v.join(', ') || '—'}</>;
  if (typeof v === 'object') return <code>{JSON.stringify(v)}</code>;
  return <>{String(v)}</>;
}

/** Records as a table with a column per field (the shapes are not in the spec, so nothing is renamed or dropped). */
function Rows(props: { rows: unknown; empty: string }) {
  const rows = Array.isArray(props.rows) ? (props.rows as unknown[]) : [];
  if (rows.length === 0) return <Empty>{props.empty}</Empty>;
  const objects = rows.map((r) =>
    r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r },
  );
  const cols = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  return (
    <table className="grid">
      <thead>
        <tr>
          {cols.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {objects.map((o, i) => (
          <tr key={i}>
            {cols.map((c) => (
              <td key={c}>
                <Value v={o[c]} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
