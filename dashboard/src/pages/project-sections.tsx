/** The sections of `/projects/:id`: each one reads its own gateway route, filtered by the project. */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ApprovalListResponse } from '../../../contracts/approvals.ts';
import type { RunView } from '../../../contracts/actions/runs.actions.ts';
import type { SimResultList } from '../../../contracts/simulation-views.ts';
import type { CurrentView } from '../../../contracts/twin-views.ts';
import { api, approvalsApi, qs } from '../api/gateway.ts';
import { bomTotals, useBom } from '../api/bom.ts';
import { BomPriceTotal } from '../ui/bom-price.tsx';
import { Empty, ErrorNote, Loading, StatusBadge, UnscopedNote, When } from '../ui/common.tsx';

/** `unscoped_count` of any list answer that carries one (shown, never hidden). */
const unscoped = (data: unknown) => (data as { unscoped_count?: number } | undefined)?.unscoped_count;

function Section(props: { id: string; title: string; more?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={props.id} data-testid={props.id}>
      <h2 id={props.id}>
        {props.title} {props.more && <span style={{ fontWeight: 400, fontSize: 12 }}>· {props.more}</span>}
      </h2>
      {props.children}
    </section>
  );
}

export function RunsSection(props: { projectId: string }) {
  const runs = useQuery({
    queryKey: ['runs', { project_id: props.projectId, limit: 20 }],
    queryFn: ({ signal }) =>
      api<{ runs: RunView[]; total: number }>(`/v1/runs${qs({ project_id: props.projectId, limit: 20 })}`, { signal }),
    refetchInterval: 10_000,
  });
  const list = runs.data?.runs ?? [];
  return (
    <Section
      id="project-runs"
      title={`Runs${runs.data ? ` (${runs.data.total})` : ''}`}
      more={<Link to={`/runs?project_id=${encodeURIComponent(props.projectId)}`}>all runs</Link>}
    >
      {runs.isLoading && <Loading what="runs" />}
      <ErrorNote error={runs.error} prefix="Runs" />
      <UnscopedNote count={unscoped(runs.data)} what="runs" />
      {runs.data && list.length === 0 && <Empty>No runs in this project.</Empty>}
      {list.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Flow</th>
              <th scope="col">Status</th>
              <th scope="col">Goal</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link to={`/runs/${encodeURIComponent(r.id)}`}>
                    <code title={r.id}>{r.id.replace(/^run_/, '').slice(0, 8)}</code>
                  </Link>
                </td>
                <td>{r.design_flow}</td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>{r.goal}</td>
                <td>
                  <When at={r.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function ApprovalsSection(props: { projectId: string }) {
  const approvals = useQuery({
    queryKey: ['approvals', { status: 'pending', project_id: props.projectId }],
    queryFn: ({ signal }) =>
      approvalsApi<ApprovalListResponse>(`/v1/approvals${qs({ status: 'pending', project_id: props.projectId })}`, {
        signal,
      }),
    refetchInterval: 5_000,
  });
  const items = approvals.data?.items ?? [];
  return (
    <Section
      id="project-approvals"
      title={`Pending approvals${approvals.data ? ` (${items.length})` : ''}`}
      more={
        <Link to={`/approvals?project_id=${encodeURIComponent(props.projectId)}`}>decide on the Approvals page</Link>
      }
    >
      {approvals.isLoading && <Loading what="approvals" />}
      <ErrorNote error={approvals.error} prefix="Approvals" />
      <UnscopedNote count={unscoped(approvals.data)} what="pending approvals" />
      {approvals.data && items.length === 0 && <Empty>Nothing waits for a person in this project.</Empty>}
      {items.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Kind</th>
              <th scope="col">Requested by</th>
              <th scope="col">Created</th>
              <th scope="col">Deadline</th>
            </tr>
          </thead>
          <tbody>
            {items.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link
                    to={`/approvals?project_id=${encodeURIComponent(props.projectId)}&id=${encodeURIComponent(a.id)}`}
                  >
                    {a.title}
                  </Link>
                </td>
                <td>{a.kind}</td>
                <td>{a.requested_by ?? <span className="muted">—</span>}</td>
                <td>
                  <When at={a.created_at} />
                </td>
                <td>
                  <When at={a.deadline} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function TwinSection(props: { projectId: string }) {
  const view = useQuery({
    queryKey: ['twin', 'current-view', { project_id: props.projectId }],
    queryFn: ({ signal }) =>
      api<CurrentView>(`/v1/twin/current-view${qs({ project_id: props.projectId })}`, { signal }),
  });
  const rows = Object.entries(view.data?.by_type ?? {}).flatMap(([type, entries]) => entries.map((e) => ({ type, e })));
  const q = `project=${encodeURIComponent(props.projectId)}`;
  return (
    <Section
      id="project-twin"
      title={`Twin items${view.data ? ` (${view.data.item_count})` : ''}`}
      more={<Link to={`/twin?${q}`}>open the twin</Link>}
    >
      {view.isLoading && <Loading what="twin items" />}
      <ErrorNote error={view.error} prefix="Twin" />
      <UnscopedNote count={unscoped(view.data)} what="twin items" />
      {view.data && rows.length === 0 && <Empty>No twin items in this project yet.</Empty>}
      {rows.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Item</th>
              <th scope="col">Name</th>
              <th scope="col">Head</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ type, e }) => (
              <tr key={e.key}>
                <td>{type}</td>
                <td>
                  <Link to={`/twin?${q}&item=${encodeURIComponent(e.key)}`}>
                    <code>{e.key}</code>
                  </Link>
                </td>
                <td>{e.name}</td>
                <td>
                  <code>{e.ref}</code> {e.stale && <span className="badge warn">stale</span>}
                </td>
                <td>
                  <When at={e.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function BomSection(props: { projectId: string }) {
  const bom = useBom(props.projectId);
  const t = bom.data ? bomTotals(bom.data.components) : null;
  return (
    <Section
      id="project-bom"
      title="Bill of materials"
      more={<Link to={`/bom?project=${encodeURIComponent(props.projectId)}`}>the full BOM</Link>}
    >
      {bom.isLoading && <Loading what="the BOM" />}
      <ErrorNote error={bom.error} prefix="BOM" />
      <UnscopedNote count={unscoped(bom.data)} what="BOM lines" />
      {bom.data && bom.data.total === 0 && <Empty>No BOM components in this project.</Empty>}
      {t && bom.data && bom.data.total > 0 && (
        <dl className="kv" data-testid="bom-summary">
          <dt>Components</dt>
          <dd>{bom.data.total}</dd>
          <dt>Total quantity</dt>
          <dd>{t.quantity}</dd>
          <dt>Extended price</dt>
          <dd>
            <BomPriceTotal totals={t} />
          </dd>
          <dt>Availability</dt>
          <dd>
            {t.byStatus.map(([s, n]) => (
              <span key={s} style={{ marginRight: 8 }}>
                <StatusBadge status={s} /> {n}
              </span>
            ))}
          </dd>
        </dl>
      )}
    </Section>
  );
}

export function SimSection(props: { projectId: string }) {
  const sims = useQuery({
    queryKey: ['simulation', 'results', { project_id: props.projectId, limit: 10 }],
    queryFn: ({ signal }) =>
      api<SimResultList>(`/v1/simulation/results${qs({ project_id: props.projectId, limit: 10 })}`, { signal }),
  });
  const list = sims.data?.results ?? [];
  return (
    <Section id="project-sim" title={`Latest simulation results${sims.data ? ` (${sims.data.total})` : ''}`}>
      {sims.isLoading && <Loading what="simulation results" />}
      <ErrorNote error={sims.error} prefix="Simulation results" />
      <UnscopedNote count={unscoped(sims.data)} what="simulation results" />
      {sims.data && list.length === 0 && <Empty>No simulation results in this project.</Empty>}
      {list.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Result</th>
              <th scope="col">Analysis</th>
              <th scope="col" className="num">
                Max von Mises (MPa)
              </th>
              <th scope="col">Field</th>
              <th scope="col">Recorded</th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link to={`/sim?result=${encodeURIComponent(r.id)}`}>{r.name}</Link>{' '}
                  {r.stale && <span className="badge warn">stale</span>}
                </td>
                <td>{r.analysisType ?? <span className="muted">—</span>}</td>
                <td className="num">
                  {typeof r.max_von_mises_mpa === 'number' ? r.max_von_mises_mpa : <span className="muted">—</span>}
                </td>
                <td>{r.hasField ? 'stored' : <span className="muted">none</span>}</td>
                <td>
                  <When at={r.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
