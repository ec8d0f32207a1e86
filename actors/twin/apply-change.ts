import type { Db, Queryable } from '../../brokers/db/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Decider } from '../../contracts/actions/approvals.actions.ts';
import type { ApprovalNode } from '../../contracts/actions/twin-approvals.actions.ts';
import { approvalNode, nodePending, patchNode, reviewFields } from './approval-nodes.ts';
import { writeDefinition } from './definitions.ts';
import { getItem } from './items.store.ts';
import { parseItemRef } from './keys.ts';
import { getNodeRow } from './nodes.store.ts';

/** Where an approved change goes: the target's head and what to merge, or why it cannot be applied now. */
async function planChange(q: Queryable, change: ApprovalNode) {
  const ref = parseItemRef(String(change.properties.target ?? ''));
  const item = ref && (await getItem(q, ref.key, true));
  const head = item?.head_node_id ? await getNodeRow(q, item.head_node_id) : undefined;
  if (!ref || !item || !head)
    return { error: `the target ${String(change.properties.target)} is not an item` } as const;
  if (ref.revision !== undefined && ref.revision !== item.head_revision)
    return {
      error: `the change names ${ref.key}@${ref.revision}, and the head is now @${item.head_revision}`,
    } as const;
  return { item, head } as const;
}

/** Writes the change as the target's next revision and marks the change `applied` (inside the caller's transaction). */
async function writeChange(
  q: Queryable,
  change: ApprovalNode,
  plan: Exclude<Awaited<ReturnType<typeof planChange>>, { error: string }>,
  approver: string,
  now: Date,
): Promise<ApprovalNode> {
  const { item, head } = plan;
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
}

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
    const plan = await planChange(q, change);
    if ('error' in plan) {
      await patchNode(q, change.id, { apply_error: plan.error }, null, now);
      return approvalNode(q, change.id);
    }
    return writeChange(q, change, plan, approver, now);
  });
}

/**
 * A person's approval of a `twin.approve_engineering_change` request (issue 18): the change is approved and applied
 * in one transaction through the same atomic commit, or nothing is written. A change that is not a pending design
 * change of the request's project, or whose target moved on (a patch conflict), is refused CONFLICT (409) and stays
 * pending with the request, so a person can rebase it or reject both.
 */
export async function applyAuthorizedChange(
  db: Db,
  p: { change_id: string; project_id: string | null; reason: string; decider: Decider },
  now: Date,
): Promise<ApprovalNode> {
  return db.tx(async (q) => {
    const change = await approvalNode(q, p.change_id, true).catch(() => undefined);
    if (!change || change.node_type !== 'design_change' || (p.project_id && change.project_id !== p.project_id))
      throw new ActorError('CONFLICT', `design change ${p.change_id} is not a change of this project`, {
        change_id: p.change_id,
      });
    if (!nodePending(change))
      throw new ActorError('CONFLICT', `design change ${change.id} is already ${String(change.properties.status)}`, {
        change_id: change.id,
      });
    const plan = await planChange(q, change);
    if ('error' in plan)
      throw new ActorError('CONFLICT', `design change ${change.id} cannot be applied: ${plan.error}`, {
        change_id: change.id,
        conflict: plan.error,
      });
    await patchNode(
      q,
      change.id,
      reviewFields('approve', p.reason, p.decider, now.toISOString()),
      p.decider.approver,
      now,
    );
    return writeChange(q, change, plan, p.decider.approver, now);
  });
}
