import type { Db } from '../../brokers/db/index.ts';
import type { ApprovalNode } from '../../contracts/actions/twin-approvals.actions.ts';
import { approvalNode, patchNode } from './approval-nodes.ts';
import { writeDefinition } from './definitions.ts';
import { getItem } from './items.store.ts';
import { parseItemRef } from './keys.ts';
import { getNodeRow } from './nodes.store.ts';

/**
 * Applies an approved design change (issue 16: the assistant's proposals, and `twin.propose_change`'s): the target
 * item's next revision, with the change's `changes` merged over the properties of its head and the change's rationale
 * as the change reason; then the change is `applied` and names the revision it made. Deterministic code, no model. A
 * target that is gone, or named at a revision that is no longer the head (`KEY@n` after someone else's change), is
 * not applied: the change stays approved with `apply_error` saying why, and nothing else is written. One transaction.
 */
export async function applyChange(db: Db, nodeId: string, approver: string, now: Date): Promise<ApprovalNode> {
  return db.tx(async (q) => {
    const change = await approvalNode(q, nodeId, true);
    if (change.node_type !== 'design_change' || change.properties.status !== 'approved') return change;
    const notApplied = async (why: string) => {
      await patchNode(q, change.id, { apply_error: why }, null, now);
      return approvalNode(q, change.id);
    };
    const ref = parseItemRef(String(change.properties.target ?? ''));
    const item = ref && (await getItem(q, ref.key, true));
    const head = item?.head_node_id ? await getNodeRow(q, item.head_node_id) : undefined;
    if (!ref || !item || !head) return notApplied(`the target ${String(change.properties.target)} is not an item`);
    if (ref.revision !== undefined && ref.revision !== item.head_revision) {
      return notApplied(`the change names ${ref.key}@${ref.revision}, and the head is now @${item.head_revision}`);
    }
    const changes = (change.properties.changes ?? {}) as Record<string, unknown>;
    const written = await writeDefinition(
      q,
      {
        project_id: item.project_id,
        item_type: item.item_type,
        name: head.name,
        properties: { ...(head.properties ?? {}), ...changes },
        item_key: `${item.key}@${item.head_revision}`,
        change_reason: String(change.properties.rationale ?? change.name),
        writer: { author: approver },
      },
      now,
    );
    await patchNode(
      q,
      change.id,
      { status: 'applied', applied_ref: written.item_ref, applied_at: now.toISOString() },
      null,
      now,
    );
    return approvalNode(q, change.id);
  });
}
