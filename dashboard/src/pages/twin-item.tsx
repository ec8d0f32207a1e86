/**
 * One twin item: its revisions (`GET /v1/twin/items/{key}/revisions`), a diff of two revisions
 * (`GET /v1/twin/items/{key}/diff?from=&to=`, default the head against the revision before it) and the relationships
 * of the head node (`GET /v1/twin/relationships?node_id=`).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ItemHistoryResult } from '../../../contracts/twin.ts';
import type { ItemDiff, RelationshipListSchema } from '../../../contracts/twin-views.ts';
import type { z } from 'zod';
import { api, qs } from '../api/gateway.ts';
import { Empty, ErrorNote, Loading, StatusBadge, When } from '../ui/common.tsx';
import { displayJson } from '../ui/display.ts';

type RelationshipList = z.infer<typeof RelationshipListSchema>;
const enc = encodeURIComponent;

export function TwinItem(props: { itemKey: string }) {
  const key = props.itemKey;
  const history = useQuery({
    queryKey: ['twin', 'item', key, 'revisions'],
    queryFn: ({ signal }) => api<ItemHistoryResult>(`/v1/twin/items/${enc(key)}/revisions`, { signal }),
  });
  const h = history.data;
  return (
    <>
      {history.isLoading && <Loading what="revisions" />}
      <ErrorNote error={history.error} prefix={`Item ${key}`} />
      {h && (
        <>
          <p>
            {h.item_type} · <strong>{h.name}</strong> · current <code>{h.current.ref}</code>
            {h.draft_ref && (
              <>
                {' '}
                · open draft <code>{h.draft_ref}</code>
              </>
            )}
          </p>
          <h3>Revisions ({h.revisions.length})</h3>
          <table className="grid" data-testid="twin-revisions">
            <thead>
              <tr>
                <th scope="col">Rev</th>
                <th scope="col">Status</th>
                <th scope="col">Name</th>
                <th scope="col">Change reason</th>
                <th scope="col">Author / run</th>
              </tr>
            </thead>
            <tbody>
              {h.revisions.map((r) => (
                <tr key={r.revision}>
                  <td>
                    <code title={`${h.key}@${r.revision}`}>@{r.revision}</code>
                    {r.is_head && <span className="badge info"> head</span>}
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>{r.name}</td>
                  <td>{r.change_reason ?? <span className="muted">—</span>}</td>
                  <td>
                    {r.author ?? <span className="muted">—</span>}
                    {r.run_id && <span className="muted"> · run {r.run_id.slice(0, 8)}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ItemDiffView itemKey={key} revisions={h.revisions.map((r) => r.revision)} />
          <Relationships nodeId={h.current.node_id} refText={h.current.ref} />
        </>
      )}
    </>
  );
}

function ItemDiffView(props: { itemKey: string; revisions: number[] }) {
  const revs = [...props.revisions].sort((a, b) => a - b);
  const [from, setFrom] = useState<number | ''>('');
  const [to, setTo] = useState<number | ''>('');
  const enabled = revs.length >= 2;
  const diff = useQuery({
    queryKey: ['twin', 'item', props.itemKey, 'diff', { from, to }],
    queryFn: ({ signal }) => api<ItemDiff>(`/v1/twin/items/${enc(props.itemKey)}/diff${qs({ from, to })}`, { signal }),
    enabled,
  });
  const d = diff.data;
  const pick = (label: string, value: number | '', set: (v: number | '') => void, def: string) => (
    <label>
      {label}
      <select value={value} onChange={(e) => set(e.target.value ? Number(e.target.value) : '')}>
        <option value="">{def}</option>
        {revs.map((r) => (
          <option key={r} value={r}>
            {props.itemKey}@{r}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <h3>Diff</h3>
      {!enabled ? (
        <Empty>One revision only: nothing to compare yet.</Empty>
      ) : (
        <>
          <div className="toolbar">
            {pick('From', from, setFrom, 'the revision before')}
            {pick('To', to, setTo, 'the head')}
          </div>
          {diff.isLoading && <Loading what="the diff" />}
          <ErrorNote error={diff.error} prefix="Diff" />
          {d && (
            <>
              <p data-testid="twin-diff-summary">
                <code>{d.from.ref}</code> → <code>{d.to.ref}</code>: {d.counts.added} added, {d.counts.removed} removed,{' '}
                {d.counts.changed} changed{d.name_changed ? '; name changed' : ''}
                {d.file_changed ? '; stored file changed' : ''}.
              </p>
              {d.changes.length > 0 && (
                <table className="grid twin-diff">
                  <thead>
                    <tr>
                      <th scope="col">Property</th>
                      <th scope="col">Change</th>
                      <th scope="col">From</th>
                      <th scope="col">To</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.changes.map((c) => (
                      <tr key={c.path}>
                        <td>
                          <code>{c.path}</code>
                        </td>
                        <td>{c.change}</td>
                        <td>
                          <code>{c.from === undefined ? '' : displayJson(c.from)}</code>
                        </td>
                        <td>
                          <code>{c.to === undefined ? '' : displayJson(c.to)}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </>
      )}
    </>
  );
}

function Relationships(props: { nodeId: string; refText: string }) {
  const rels = useQuery({
    queryKey: ['twin', 'relationships', props.nodeId],
    queryFn: ({ signal }) =>
      api<RelationshipList>(`/v1/twin/relationships${qs({ node_id: props.nodeId })}`, { signal }),
  });
  const list = rels.data?.relationships ?? [];
  return (
    <>
      <h3>Relationships of {props.refText}</h3>
      {rels.isLoading && <Loading what="relationships" />}
      <ErrorNote error={rels.error} prefix="Relationships" />
      {rels.data && list.length === 0 && <Empty>No relationships.</Empty>}
      {list.length > 0 && (
        <table className="grid" data-testid="twin-relationships">
          <thead>
            <tr>
              <th scope="col">Relation</th>
              <th scope="col">Direction</th>
              <th scope="col">Other node</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id}>
                <td>{r.rel_type}</td>
                <td>{r.direction === 'out' ? 'this → other' : 'other → this'}</td>
                <td>
                  {r.other.node_type} · {r.other.name} {r.other.item_ref && <code>{r.other.item_ref}</code>}
                </td>
                <td>
                  <When at={r.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
