import crypto from 'node:crypto';
import type { Queryable } from '../../brokers/db/index.ts';
import type { TwinEdge, TwinNode } from '../../contracts/twin-nodes.ts';
import { refOf } from './keys.ts';

export interface NodeRow {
  id: string;
  project_id: string | null;
  node_type: string;
  name: string;
  properties: Record<string, unknown>;
  item_key: string | null;
  revision: number | null;
  revision_status: TwinNode['revision_status'];
  base_revision: number | null;
  run_id: string | null;
  phase: string | null;
  gate: string | null;
  change_reason: string | null;
  draft_note: string | null;
  status_reason: string | null;
  author: string | null;
  approved_by: string | null;
  approved_at: Date | null;
  stale: boolean;
  stale_reason: string | null;
  object_key: string | null;
  content_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The served shape of a node row. */
export function toNode(r: NodeRow): TwinNode {
  return {
    id: r.id,
    project_id: r.project_id,
    node_type: r.node_type,
    name: r.name,
    properties: r.properties ?? {},
    item_key: r.item_key,
    revision: r.revision,
    item_ref: r.item_key && r.revision ? refOf(r.item_key, r.revision) : null,
    revision_status: r.revision_status,
    run_id: r.run_id,
    phase: r.phase,
    gate: r.gate,
    change_reason: r.change_reason,
    draft_note: r.draft_note,
    status_reason: r.status_reason,
    author: r.author,
    approved_by: r.approved_by,
    approved_at: r.approved_at?.toISOString() ?? null,
    stale: r.stale,
    stale_reason: r.stale_reason,
    object_key: r.object_key,
    content_hash: r.content_hash,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/**
 * SQL fragment: the node is visible to a caller in run `$n` (or to nobody's run when null): committed revisions and
 * records always, open drafts only to their own run, rejected and abandoned revisions never (history shows them).
 */
export const visibleTo = (alias: string, runParam: string) =>
  `(${alias}.revision_status IS NULL OR ${alias}.revision_status IN ('committed', 'approved') OR (${alias}.revision_status = 'draft' AND ${alias}.run_id = ${runParam}))`;

export interface NewNode {
  id?: string;
  project_id: string | null;
  node_type: string;
  name: string;
  properties?: Record<string, unknown>;
  item_key?: string | null;
  revision?: number | null;
  revision_status?: TwinNode['revision_status'];
  base_revision?: number | null;
  run_id?: string | null;
  phase?: string | null;
  /** The attempt of `phase` that wrote a run's node (decision 0142). */
  attempt?: number | null;
  change_reason?: string | null;
  draft_note?: string | null;
  author?: string | null;
  object_key?: string | null;
  content_hash?: string | null;
}

export async function insertNode(q: Queryable, n: NewNode, now: Date): Promise<NodeRow> {
  const { rows } = await q.query<NodeRow>(
    `INSERT INTO twin_nodes (id, project_id, node_type, name, properties, item_key, revision, revision_status, base_revision,
       run_id, phase, change_reason, draft_note, author, object_key, content_hash, created_at, updated_at, attempt)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$17,$18) RETURNING *`,
    [
      n.id ?? crypto.randomUUID(),
      n.project_id,
      n.node_type,
      n.name,
      JSON.stringify(n.properties ?? {}),
      n.item_key ?? null,
      n.revision ?? null,
      n.revision_status ?? null,
      n.base_revision ?? null,
      n.run_id ?? null,
      n.phase ?? null,
      n.change_reason ?? null,
      n.draft_note ?? null,
      n.author ?? null,
      n.object_key ?? null,
      n.content_hash ?? null,
      now,
      n.attempt ?? null,
    ],
  );
  return rows[0];
}

export async function getNodeRow(q: Queryable, id: string): Promise<NodeRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const { rows } = await q.query<NodeRow>('SELECT * FROM twin_nodes WHERE id = $1', [id]);
  return rows[0];
}

export async function insertEdge(
  q: Queryable,
  src: string,
  dst: string,
  rel: string,
  properties: Record<string, unknown> = {},
): Promise<void> {
  await q.query('INSERT INTO twin_edges (src, dst, rel_type, properties) VALUES ($1, $2, $3, $4)', [
    src,
    dst,
    rel,
    JSON.stringify(properties),
  ]);
}

interface EdgeRow {
  id: string;
  src: string;
  dst: string;
  rel_type: string;
  properties: Record<string, unknown>;
  created_at: Date;
}
export const toEdge = (r: EdgeRow): TwinEdge => ({ ...r, id: String(r.id), created_at: r.created_at.toISOString() });

export async function edgesOf(q: Queryable, nodeId: string): Promise<TwinEdge[]> {
  const { rows } = await q.query<EdgeRow>('SELECT * FROM twin_edges WHERE src = $1 OR dst = $1 ORDER BY id', [nodeId]);
  return rows.map(toEdge);
}

/** Marks every node that depends on or derives from `oldHead` stale, naming what superseded it; returns their ids. */
export async function markDependantsStale(q: Queryable, oldHead: string, reason: string, now: Date): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `UPDATE twin_nodes SET stale = true, stale_reason = $2, updated_at = $3
     WHERE id IN (SELECT src FROM twin_edges WHERE dst = $1 AND rel_type IN ('DEPENDS_ON', 'DERIVES_FROM'))
       AND NOT stale RETURNING id`,
    [oldHead, reason, now],
  );
  return rows.map((r) => r.id);
}
