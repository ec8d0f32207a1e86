import { ActorError } from '../../brokers/errors.ts';
import type { Queryable } from '../../brokers/db/index.ts';
import type { Writer } from '../../contracts/twin-nodes.ts';
import { newItemKey, parseItemRef, refOf } from './keys.ts';
import { refusalToRevise, resolveByName, revisionReason, type WriteScope } from './item-scope.ts';
import {
  createItem,
  findItemsByName,
  getItem,
  moveHead,
  openDraft,
  revisableKeys,
  type ItemRow,
} from './items.store.ts';
import { getNodeRow, insertEdge, insertNode, markDependantsStale, type NodeRow } from './nodes.store.ts';

/** A definition write: the next revision of an item (`commit_geometry`, `record_constraint_set`, entities, ...). */
export interface DefinitionWrite {
  project_id: string | null;
  item_type: string;
  name: string;
  properties: Record<string, unknown>;
  /** `KEY` or `KEY@n`; a stale `@n` fails with nothing written; an unknown bare key names a new item. */
  item_key?: string | null;
  /** Node id of the revision this write supersedes. */
  supersedes?: string | null;
  change_reason?: string | null;
  object_key?: string | null;
  content_hash?: string | null;
  writer: Writer;
}

export interface DefinitionWritten {
  node: NodeRow;
  item_key: string;
  revision: number;
  item_ref: string;
  revision_status?: 'draft';
  draft_note?: string;
  stale_marked: string[];
}

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';

/** An item named by key or node in a run must be the run's to revise (decision 0100); throws CONFLICT otherwise. */
function ownedOrListed(item: ItemRow, scope: WriteScope): { item: ItemRow } {
  const refusal = refusalToRevise(item, scope);
  if (refusal) throw new ActorError('CONFLICT', refusal, { item_key: item.key, origin_run_id: item.origin_run_id });
  return { item };
}

/**
 * Finds (and locks) the item a write names, or decides the key of a new one, within the writer's scope (decision 0100:
 * a run's items are its own). Throws on stale or unknown refs, on another run's item the run did not list in
 * `revise`, and on a name that names several items outside a run.
 */
async function resolveItem(
  q: Queryable,
  w: DefinitionWrite,
  scope: WriteScope,
): Promise<{ item?: ItemRow; newKey?: string }> {
  if (!blank(w.item_key)) {
    const ref = parseItemRef(w.item_key!);
    if (!ref)
      throw new ActorError('VALIDATION_FAILED', `item_key ${JSON.stringify(w.item_key)} is not KEY or KEY@n`, {
        item_key: w.item_key,
      });
    const item = await getItem(q, ref.key, true);
    if (!item) {
      if (ref.revision !== undefined) throw ActorError.notFound('item', w.item_key!);
      return { newKey: ref.key };
    }
    if (item.item_type !== w.item_type) {
      throw new ActorError('VALIDATION_FAILED', `item ${item.key} is a ${item.item_type}, not a ${w.item_type}`, {
        item_key: item.key,
      });
    }
    if (ref.revision !== undefined && ref.revision !== item.head_revision) {
      throw new ActorError(
        'STALE_REVISION',
        `${refOf(ref.key, ref.revision)} is stale: the head is ${refOf(item.key, item.head_revision)}; nothing was written`,
        {
          item_key: item.key,
          given: ref.revision,
          head: item.head_revision,
        },
      );
    }
    return ownedOrListed(item, scope);
  }
  if (!blank(w.supersedes)) {
    const node = await getNodeRow(q, w.supersedes!);
    if (!node?.item_key) throw ActorError.notFound('revision node', w.supersedes!);
    const item = await getItem(q, node.item_key, true);
    if (!item || item.head_node_id !== node.id) {
      throw new ActorError(
        'STALE_REVISION',
        `supersedes ${w.supersedes} is not the head of ${node.item_key} (head ${item ? refOf(item.key, item.head_revision) : 'none'}); nothing was written`,
        {
          item_key: node.item_key,
        },
      );
    }
    return ownedOrListed(item, scope);
  }
  const named = resolveByName(await findItemsByName(q, w.project_id, w.item_type, w.name, true), scope);
  if (named.kind === 'ambiguous')
    throw new ActorError(
      'VALIDATION_FAILED',
      `the name ${JSON.stringify(w.name)} names ${named.keys.length} ${w.item_type} items (${named.keys.join(', ')}): give item_key; nothing was written`,
      { keys: named.keys },
    );
  return named.kind === 'item' ? { item: named.item } : { newKey: newItemKey(w.item_type, w.name) };
}

/**
 * Applies one definition write inside the caller's transaction (SPEC Twin rule 3, "Item revision statuses").
 * Outside a run: a committed revision, the head moves, REVISION_OF and SUPERSEDES edges, dependants of the old head
 * marked stale. Inside a run: a draft only that run sees (the run's later draft of the same item replaces it); the
 * head does not move until the run's gate approves.
 */
export async function writeDefinition(q: Queryable, w: DefinitionWrite, now: Date): Promise<DefinitionWritten> {
  const runId = w.writer.run_id ?? null;
  const scope: WriteScope = { run_id: runId, revise: runId ? await revisableKeys(q, runId) : [] };
  const resolved = await resolveItem(q, w, scope);
  const item = resolved.item ?? (await createItem(q, resolved.newKey!, w.project_id, w.item_type, w.name, now, runId));
  const revision = item.head_revision + 1;
  const base = {
    project_id: item.project_id,
    node_type: item.item_type,
    name: w.name,
    properties: w.properties,
    item_key: item.key,
    revision,
    change_reason: revisionReason(item, scope, blank(w.change_reason) ? null : w.change_reason!),
    author: w.writer.author ?? null,
    object_key: w.object_key ?? null,
    content_hash: w.content_hash ?? null,
  };

  if (w.writer.run_id) {
    const prior = await openDraft(q, item.key, w.writer.run_id);
    if (prior) {
      await q.query(
        `UPDATE twin_nodes SET revision_status = 'abandoned', status_reason = 'replaced by a later draft in the same run', updated_at = $2 WHERE id = $1`,
        [prior.id, now],
      );
    }
    await q.query(
      `INSERT INTO twin_change_sets (id, project_id) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET status = 'open', closed_at = NULL`,
      [w.writer.run_id, item.project_id],
    );
    const draftNote = `Draft ${refOf(item.key, revision)} of run ${w.writer.run_id}; the head stays at ${
      item.head_revision ? refOf(item.key, item.head_revision) : 'none'
    } until the run's gate is approved.`;
    const node = await insertNode(
      q,
      {
        ...base,
        revision_status: 'draft',
        base_revision: item.head_revision,
        run_id: w.writer.run_id,
        phase: w.writer.phase ?? null,
        attempt: w.writer.attempt ?? null,
        draft_note: draftNote,
      },
      now,
    );
    return {
      node,
      item_key: item.key,
      revision,
      item_ref: refOf(item.key, revision),
      revision_status: 'draft',
      draft_note: draftNote,
      stale_marked: [],
    };
  }

  const node = await insertNode(q, { ...base, revision_status: 'committed', base_revision: item.head_revision }, now);
  let stale: string[] = [];
  if (item.head_node_id) {
    await insertEdge(q, node.id, item.head_node_id, 'REVISION_OF', { change_reason: base.change_reason });
    await insertEdge(q, node.id, item.head_node_id, 'SUPERSEDES', {});
    stale = await markDependantsStale(
      q,
      item.head_node_id,
      `${refOf(item.key, item.head_revision)} was superseded by ${refOf(item.key, revision)}`,
      now,
    );
  }
  await moveHead(q, item.key, revision, node.id, now);
  return { node, item_key: item.key, revision, item_ref: refOf(item.key, revision), stale_marked: stale };
}
