/**
 * Baselines of the twin (`GET /v1/twin/baselines[?project_id=]`) and the diff of two of them, or of one against the
 * current view (`GET /v1/twin/baselines/diff?a=&b=`; without b the current view is the other side).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { BaselineDiff, BaselineList } from '../../../contracts/twin.ts';
import { api, qs } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, StatusBadge, When } from '../ui/common.tsx';
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';

const BASELINE_COLUMNS: Column<BaselineList['baselines'][number]>[] = [
  { header: 'Name', cell: (bl) => bl.name },
  { header: 'Source', cell: (bl) => bl.source },
  { header: 'Items', num: true, cell: (bl) => bl.item_count },
  { header: 'Members', num: true, cell: (bl) => bl.member_count },
  { header: 'Approved by', cell: (bl) => bl.approved_by.join(', ') || <Missing /> },
  { header: 'Reason', cell: (bl) => bl.reason || <Missing /> },
  { header: 'Created', cell: (bl) => <When at={bl.created_at} /> },
];

const ref = (r: string | null | undefined) => (r ? <code>{r}</code> : <Missing />);

const DIFF_COLUMNS: Column<BaselineDiff['items'][number]>[] = [
  { header: 'Item', cell: (it) => <code>{it.key}</code> },
  { header: 'Type', cell: (it) => it.item_type },
  { header: 'Name', cell: (it) => it.name },
  { header: 'Status', cell: (it) => <StatusBadge status={it.status} /> },
  { header: 'From', cell: (it) => ref(it.from_ref) },
  { header: 'To', cell: (it) => ref(it.to_ref) },
];

export function TwinBaselines(props: { project: string }) {
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const baselines = useQuery({
    queryKey: ['twin', 'baselines', { project_id: props.project }],
    queryFn: ({ signal }) =>
      api<BaselineList>(`/v1/twin/baselines${qs({ project_id: props.project, limit: 200 })}`, { signal }),
  });
  const list = baselines.data?.baselines ?? [];
  const diff = useQuery({
    queryKey: ['twin', 'baselines', 'diff', { a, b }],
    queryFn: ({ signal }) => api<BaselineDiff>(`/v1/twin/baselines/diff${qs({ a, b })}`, { signal }),
    enabled: a !== '',
  });
  const d = diff.data;
  return (
    <section aria-labelledby="twin-baselines-h">
      <h2 id="twin-baselines-h">Baselines{baselines.data ? ` (${baselines.data.total})` : ''}</h2>
      {baselines.isLoading && <Loading what="baselines" />}
      <ErrorNote error={baselines.error} prefix="Could not load the baselines" />
      {baselines.data && list.length === 0 && (
        <Empty>No baselines{props.project ? ' in this project' : ''}: a gate approval records one.</Empty>
      )}
      {list.length > 0 && (
        <>
          <DataTable testId="twin-baselines" columns={BASELINE_COLUMNS} rows={list} rowKey={(r) => r.id} />
          <h3>Compare</h3>
          <div className="toolbar">
            <label>
              Baseline A
              <select value={a} onChange={(e) => setA(e.target.value)}>
                <option value="">Choose…</option>
                {list.map((bl) => (
                  <option key={bl.id} value={bl.id}>
                    {bl.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Against
              <select value={b} onChange={(e) => setB(e.target.value)}>
                <option value="">the current view</option>
                {list.map((bl) => (
                  <option key={bl.id} value={bl.id}>
                    {bl.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {diff.isLoading && <Loading what="the baseline diff" />}
          <ErrorNote error={diff.error} prefix="Baseline diff" />
          {d && (
            <>
              <p>
                {d.a.name} → {d.b_is_current || !d.b ? 'current view' : d.b.name}:{' '}
                {Object.entries(d.counts)
                  .map(([k, n]) => `${n} ${k}`)
                  .join(', ') || 'no differences'}
                .
              </p>
              {d.items.length > 0 && <DataTable columns={DIFF_COLUMNS} rows={d.items} rowKey={(r) => r.key} />}
            </>
          )}
        </>
      )}
    </section>
  );
}
