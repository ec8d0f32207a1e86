import type { Queryable } from '../../brokers/db/index.ts';
import type { Item } from '../../contracts/twin.ts';
import { refOf } from './keys.ts';

export interface ItemRow {
  key: string;
  project_id: string | null;
  item_type: string;
  name: string;
  head_revision: number;
  head_node_id: string | null;
  /** The run that created the item (decision 0100); null when no run owns it. */
  origin_run_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export function toItem(r: ItemRow, draft?: { revision: number; node_id: string }): Item {
  return {
    key: r.key,
    item_type: r.item_type,
    name: r.name,
    project_id: r.project_id,
    head_revision: r.head_revision > 0 ? r.head_revision : null,
    head_node_id: r.head_node_id,
    head_ref: r.head_revision > 0 ? refOf(r.key, r.head_revision) : null,
    origin_run_id: r.origin_run_id ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    ...(draft
      ? { draft_revision: draft.revision, draft_node_id: draft.node_id, draft_ref: refOf(r.key, draft.revision) }
      : {}),
  };
}

/** Reads an item, locking its row for the rest of the transaction when `lock` is set. */
export async function getItem(q: Queryable, key: string, lock = false): Promise<ItemRow | undefined> {
  const { rows } = await q.query<ItemRow>(`SELECT * FROM twin_items WHERE key = $1${lock ? ' FOR UPDATE' : ''}`, [key]);
  return rows[0];
}

/**
 * Every item of a name and type in a project (one per owning run, and one no run owns: decision 0100), oldest first;
 * `item-scope.ts` decides which one a write names. Locked for the rest of the transaction when `lock` is set.
 */
export async function findItemsByName(
  q: Queryable,
  projectId: string | null,
  itemType: string,
  name: string,
  lock = false,
): Promise<ItemRow[]> {
  const { rows } = await q.query<ItemRow>(
    `SELECT * FROM twin_items WHERE COALESCE(project_id, '') = COALESCE($1, '') AND item_type = $2 AND name = $3
     ORDER BY created_at, key${lock ? ' FOR UPDATE' : ''}`,
    [projectId, itemType, name],
  );
  return rows;
}

/** The other runs' item keys run `runId` may revise: the `revise` list its start request declared. */
export async function revisableKeys(q: Queryable, runId: string): Promise<string[]> {
  const { rows } = await q.query<{ item_key: string }>('SELECT item_key FROM twin_run_revisions WHERE run_id = $1', [
    runId,
  ]);
  return rows.map((r) => r.item_key);
}

export async function createItem(
  q: Queryable,
  key: string,
  projectId: string | null,
  itemType: string,
  name: string,
  now: Date,
  originRunId: string | null = null,
): Promise<ItemRow> {
  const { rows } = await q.query<ItemRow>(
    `INSERT INTO twin_items (key, project_id, item_type, name, head_revision, origin_run_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 0, $6, $5, $5) RETURNING *`,
    [key, projectId, itemType, name, now, originRunId],
  );
  return rows[0];
}

export async function moveHead(q: Queryable, key: string, revision: number, nodeId: string, now: Date): Promise<void> {
  await q.query('UPDATE twin_items SET head_revision = $2, head_node_id = $3, updated_at = $4 WHERE key = $1', [
    key,
    revision,
    nodeId,
    now,
  ]);
}

/** The open draft of an item in a run, if any. */
export async function openDraft(
  q: Queryable,
  key: string,
  runId: string,
): Promise<{ id: string; revision: number; base_revision: number } | undefined> {
  const { rows } = await q.query<{ id: string; revision: number; base_revision: number }>(
    `SELECT id, revision, base_revision FROM twin_nodes WHERE item_key = $1 AND run_id = $2 AND revision_status = 'draft'`,
    [key, runId],
  );
  return rows[0];
}
