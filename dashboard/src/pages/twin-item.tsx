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
import { DataTable, Missing, type Column } from '../ui/data-table.tsx';
import { displayJson } from '../ui/display.ts';

type RelationshipList = z.infer<typeof RelationshipListSchema>;
const enc = encodeURIComponent;

const revisionColumns = (key: string): Column<ItemHistoryResult['revisions'][number]>[] => [
  {
    header: 'Rev',
    cell: (r) => (
      <>
        <code title={`${key}@${r.revision}`}>@{r.revision}</code>
        {r.is_head && <span className="badge info"> head</span>}
      </>
    ),
  },
  { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
  { header: 'Name', cell: (r) => r.name },
  { header: 'Change reason', cell: (r) => r.change_reason ?? <Missing /> },
  {
    header: 'Author / run',
    cell: (r) => (
      <>
        {r.author ?? <Missing />}
        {r.run_id && <span className="muted"> · run {r.run_id.slice(0, 8)}</span>}
      </>
    ),
  },
];

const CHANGE_COLUMNS: Column<ItemDiff['changes'][number]>[] = [
  { header: 'Property', cell: (c) => <code>{c.path}</code> },
  { header: 'Change', cell: (c) => c.change },
  { header: 'From', cell: (c) => <code>{c.from === undefined ? '' : displayJson(c.from)}</code> },
  { header: 'To', cell: (c) => <code>{c.to === undefined ? '' : displayJson(c.to)}</code> },
];

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
          <DataTable
            testId="twin-revisions"
            columns={revisionColumns(h.key)}
            rows={h.revisions}
            rowKey={(r) => String(r.revision)}
          />
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
                <DataTable className="twin-diff" columns={CHANGE_COLUMNS} rows={d.changes} rowKey={(c) => c.path} />
              )}
            </>
          )}
        </>
      )}
    </>
  );
}

const REL_COLUMNS: Column<RelationshipList['relationships'][number]>[] = [
  { header: 'Relation', cell: (r) => r.rel_type },
  { header: 'Direction', cell: (r) => (r.direction === 'out' ? 'this → other' : 'other → this') },
  {
    header: 'Other node',
    cell: (r) => (
      <>
        {r.other.node_type} · {r.other.name} {r.other.item_ref && <code>{r.other.item_ref}</code>}
      </>
    ),
  },
  { header: 'Since', cell: (r) => <When at={r.created_at} /> },
];

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
        <DataTable testId="twin-relationships" columns={REL_COLUMNS} rows={list} rowKey={(r) => r.id} />
      )}
    </>
  );
}
