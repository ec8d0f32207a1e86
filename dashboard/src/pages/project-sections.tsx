/** The sections of `/projects/:id`: each one reads its own gateway route, filtered by the project. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ApprovalListResponse } from '../../../contracts/approvals.ts';
import type { RunView } from '../../../contracts/actions/runs.actions.ts';
import type { SimResultList } from '../../../contracts/simulation-views.ts';
import type { CurrentView } from '../../../contracts/twin-views.ts';
import { api, approvalsApi, qs } from '../api/gateway.ts';
import { bomTotals, useBom } from '../api/bom.ts';
import { BomPriceTotal } from '../ui/bom-price.tsx';
import { StatusBadge, When } from '../ui/common.tsx';
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';
import { ListState, Section } from '../ui/section.tsx';

const RUN_COLUMNS: Column<RunView>[] = [
  {
    header: 'Run',
    cell: (r) => (
      <Link to={`/runs/${encodeURIComponent(r.id)}`}>
        <code title={r.id}>{r.id.replace(/^run_/, '').slice(0, 8)}</code>
      </Link>
    ),
  },
  { header: 'Flow', cell: (r) => r.design_flow },
  { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
  { header: 'Goal', cell: (r) => r.goal },
  { header: 'Started', cell: (r) => <When at={r.created_at} /> },
];

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
      <ListState query={runs} what="runs" prefix="Runs" count={list.length} empty="No runs in this project.">
        <DataTable columns={RUN_COLUMNS} rows={list} rowKey={(r) => r.id} />
      </ListState>
    </Section>
  );
}

type Approval = ApprovalListResponse['items'][number];

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
  const project = encodeURIComponent(props.projectId);
  const columns: Column<Approval>[] = [
    {
      header: 'Title',
      cell: (a) => <Link to={`/approvals?project_id=${project}&id=${encodeURIComponent(a.id)}`}>{a.title}</Link>,
    },
    { header: 'Kind', cell: (a) => a.kind },
    { header: 'Requested by', cell: (a) => a.requested_by ?? <Missing /> },
    { header: 'Created', cell: (a) => <When at={a.created_at} /> },
    { header: 'Deadline', cell: (a) => <When at={a.deadline} /> },
  ];
  return (
    <Section
      id="project-approvals"
      title={`Pending approvals${approvals.data ? ` (${items.length})` : ''}`}
      more={<Link to={`/approvals?project_id=${project}`}>decide on the Approvals page</Link>}
    >
      <ListState
        query={approvals}
        what="pending approvals"
        prefix="Approvals"
        count={items.length}
        empty="Nothing waits for a person in this project."
      >
        <DataTable columns={columns} rows={items} rowKey={(a) => a.id} />
      </ListState>
    </Section>
  );
}

type TwinRow = { type: string; e: CurrentView['by_type'][string][number] };

export function TwinSection(props: { projectId: string }) {
  const view = useQuery({
    queryKey: ['twin', 'current-view', { project_id: props.projectId }],
    queryFn: ({ signal }) =>
      api<CurrentView>(`/v1/twin/current-view${qs({ project_id: props.projectId })}`, { signal }),
  });
  const rows: TwinRow[] = Object.entries(view.data?.by_type ?? {}).flatMap(([type, entries]) =>
    entries.map((e) => ({ type, e })),
  );
  const q = `project=${encodeURIComponent(props.projectId)}`;
  const columns: Column<TwinRow>[] = [
    { header: 'Type', cell: (r) => r.type },
    {
      header: 'Item',
      cell: ({ e }) => (
        <Link to={`/twin?${q}&item=${encodeURIComponent(e.key)}`}>
          <code>{e.key}</code>
        </Link>
      ),
    },
    { header: 'Name', cell: ({ e }) => e.name },
    {
      header: 'Head',
      cell: ({ e }) => (
        <>
          <code>{e.ref}</code> {e.stale && <span className="badge warn">stale</span>}
        </>
      ),
    },
    { header: 'Updated', cell: ({ e }) => <When at={e.updated_at} /> },
  ];
  return (
    <Section
      id="project-twin"
      title={`Twin items${view.data ? ` (${view.data.item_count})` : ''}`}
      more={<Link to={`/twin?${q}`}>open the twin</Link>}
    >
      <ListState
        query={view}
        what="twin items"
        prefix="Twin"
        count={rows.length}
        empty="No twin items in this project yet."
      >
        <DataTable columns={columns} rows={rows} rowKey={(r) => r.e.key} />
      </ListState>
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
      <ListState
        query={bom}
        what="BOM lines"
        prefix="BOM"
        count={bom.data?.total ?? 0}
        empty="No BOM components in this project."
      >
        {t && bom.data && (
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
      </ListState>
    </Section>
  );
}

type SimRow = SimResultList['results'][number];

const SIM_COLUMNS: Column<SimRow>[] = [
  {
    header: 'Result',
    cell: (r) => (
      <>
        <Link to={`/sim?result=${encodeURIComponent(r.id)}`}>{r.name}</Link>{' '}
        {r.stale && <span className="badge warn">stale</span>}
      </>
    ),
  },
  { header: 'Analysis', cell: (r) => r.analysisType ?? <Missing /> },
  {
    header: 'Max von Mises (MPa)',
    num: true,
    cell: (r) => (typeof r.max_von_mises_mpa === 'number' ? r.max_von_mises_mpa : <Missing />),
  },
  { header: 'Field', cell: (r) => (r.hasField ? 'stored' : <span className="muted">none</span>) },
  { header: 'Recorded', cell: (r) => <When at={r.created_at} /> },
];

export function SimSection(props: { projectId: string }) {
  const sims = useQuery({
    queryKey: ['simulation', 'results', { project_id: props.projectId, limit: 10 }],
    queryFn: ({ signal }) =>
      api<SimResultList>(`/v1/simulation/results${qs({ project_id: props.projectId, limit: 10 })}`, { signal }),
  });
  const list = sims.data?.results ?? [];
  return (
    <Section id="project-sim" title={`Latest simulation results${sims.data ? ` (${sims.data.total})` : ''}`}>
      <ListState
        query={sims}
        what="simulation results"
        prefix="Simulation results"
        count={list.length}
        empty="No simulation results in this project."
      >
        <DataTable columns={SIM_COLUMNS} rows={list} rowKey={(r) => r.id} />
      </ListState>
    </Section>
  );
}
