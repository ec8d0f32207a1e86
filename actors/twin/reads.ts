import { ActorError } from '../../brokers/errors.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { ItemHistoryResult, ItemRevision } from '../../contracts/twin.ts';
import { parseItemRef, refOf } from './keys.ts';
import { getItem, toItem } from './items.store.ts';
import { getNodeRow, visibleTo, type NodeRow } from './nodes.store.ts';

/** A reference to a revision node: its id, `KEY` (current for the caller) or `KEY@n`. */
export interface NodeRef {
  node_id?: string;
  item_key?: string;
  run_id?: string;
}

/**
 * Resolves a node for a caller (SPEC Twin rule 4): `KEY` gives the caller's current revision (its own open draft,
 * else the head), `KEY@n` that revision if visible (committed/approved, or the caller's own draft). Drafts of other
 * runs are invisible. Unknown references are NOT_FOUND naming them.
 */
export async function resolveNode(q: Queryable, ref: NodeRef): Promise<NodeRow> {
  if (ref.node_id) {
    const node = await getNodeRow(q, ref.node_id);
    if (!node || (node.revision_status === 'draft' && node.run_id !== (ref.run_id ?? null)))
      throw ActorError.notFound('node', ref.node_id);
    return node;
  }
  if (!ref.item_key)
    throw new ActorError('VALIDATION_FAILED', 'give node_id or item_key', {
      issues: [{ path: 'node_id', message: 'node_id or item_key is required' }],
    });
  const parsed = parseItemRef(ref.item_key);
  if (!parsed)
    throw new ActorError('VALIDATION_FAILED', `item_key ${JSON.stringify(ref.item_key)} is not KEY or KEY@n`);
  const item = await getItem(q, parsed.key);
  if (!item) throw ActorError.notFound('item', parsed.key);
  const { rows } = await q.query<NodeRow>(
    `SELECT * FROM twin_nodes n WHERE n.item_key = $1 AND ${visibleTo('n', '$2')}
     ${parsed.revision !== undefined ? 'AND n.revision = $3' : ''}
     ORDER BY (n.revision_status = 'draft') DESC, n.revision DESC LIMIT 1`,
    parsed.revision !== undefined
      ? [parsed.key, ref.run_id ?? null, parsed.revision]
      : [parsed.key, ref.run_id ?? null],
  );
  if (!rows[0]) throw ActorError.notFound('revision', ref.item_key);
  return rows[0];
}

/** `twin.item_history`: every revision the caller may see (its own open drafts, never another run's; closed drafts always). */
export async function itemHistory(q: Queryable, ref: NodeRef & { project_id?: string }): Promise<ItemHistoryResult> {
  let key = ref.item_key ? parseItemRef(ref.item_key)?.key : undefined;
  if (ref.item_key && !key)
    throw new ActorError('VALIDATION_FAILED', `item_key ${JSON.stringify(ref.item_key)} is not KEY or KEY@n`);
  if (!key && ref.node_id) {
    const node = await getNodeRow(q, ref.node_id);
    if (!node) throw ActorError.notFound('node', ref.node_id);
    if (!node.item_key)
      throw new ActorError(
        'NOT_FOUND',
        `node ${ref.node_id} is a ${node.node_type} record, not a revision of an item`,
        { node_id: ref.node_id },
      );
    key = node.item_key;
  }
  if (!key) throw new ActorError('VALIDATION_FAILED', 'give item_key or node_id');
  const item = await getItem(q, key);
  if (!item || (ref.project_id && item.project_id !== ref.project_id)) throw ActorError.notFound('item', key);
  const { rows } = await q.query<NodeRow>(
    `SELECT * FROM twin_nodes WHERE item_key = $1 AND (revision_status <> 'draft' OR run_id = $2) ORDER BY created_at, revision`,
    [key, ref.run_id ?? null],
  );
  const revisions: ItemRevision[] = rows.map((n) => ({
    revision: n.revision!,
    node_id: n.id,
    name: n.name,
    change_reason: n.change_reason,
    run_id: n.run_id,
    author: n.author,
    is_head: n.id === item.head_node_id,
    adopted: n.revision_status === 'committed' || n.revision_status === 'approved',
    status: n.revision_status!,
    change_set: n.run_id,
    phase: n.phase,
    gate: n.gate,
    status_reason: n.status_reason,
  }));
  const draft = rows.find((n) => n.revision_status === 'draft');
  const current = draft ?? rows.find((n) => n.id === item.head_node_id);
  if (!current)
    throw new ActorError('NOT_FOUND', `item ${key} has no revision visible to this caller`, { item_key: key });
  return {
    ...toItem(item, draft ? { revision: draft.revision!, node_id: draft.id } : undefined),
    revisions,
    current: { revision: current.revision!, node_id: current.id, ref: refOf(key, current.revision!) },
  };
}
