/**
 * Baselines of the twin (`GET /v1/twin/baselines[?project_id=]`) and the diff of two of them, or of one against the
 * current view (`GET /v1/twin/baselines/diff?a=&b=`; without b the current view is the other side).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { BaselineDiff, BaselineList } from '../../../contracts/twin.ts';
import { api, qs } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, StatusBadge, When } from '../ui/common.tsx';

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
          <table className="grid" data-testid="twin-baselines">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Source</th>
                <th scope="col" className="num">
                  Items
                </th>
                <th scope="col" className="num">
                  Members
                </th>
                <th scope="col">Approved by</th>
                <th scope="col">Reason</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.map((bl) => (
                <tr key={bl.id}>
                  <td>{bl.name}</td>
                  <td>{bl.source}</td>
                  <td className="num">{bl.item_count}</td>
                  <td className="num">{bl.member_count}</td>
                  <td>{bl.approved_by.join(', ') || <span className="muted">—</span>}</td>
                  <td>{bl.reason || <span className="muted">—</span>}</td>
                  <td>
                    <When at={bl.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
              {d.items.length > 0 && (
                <table className="grid">
                  <thead>
                    <tr>
                      <th scope="col">Item</th>
                      <th scope="col">Type</th>
                      <th scope="col">Name</th>
                      <th scope="col">Status</th>
                      <th scope="col">From</th>
                      <th scope="col">To</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.items.map((it) => (
                      <tr key={it.key}>
                        <td>
                          <code>{it.key}</code>
                        </td>
                        <td>{it.item_type}</td>
                        <td>{it.name}</td>
                        <td>
                          <StatusBadge status={it.status} />
                        </td>
                        <td>{it.from_ref ? <code>{it.from_ref}</code> : <span className="muted">—</span>}</td>
                        <td>{it.to_ref ? <code>{it.to_ref}</code> : <span className="muted">—</span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
