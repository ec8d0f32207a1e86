import type { ActionSchema } from 'moleculer';
import { action } from '../../brokers/actions.ts';
import { batchLoader, type Db } from '../../brokers/db/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { TwinApprovalActions as A } from '../../contracts/actions/twin-approvals.actions.ts';
import { approvalNodesById, decideNode, listApprovalNodes, nodeDecider } from './approval-nodes.ts';
import { applyAuthorizedChange, applyChange } from './apply-change.ts';
import { approveSpecLoop, recordLoopIteration } from './design-loops.ts';

/** The twin actor's approval actions (`TwinApprovalActions`), spread into its `actions`; `db` is read at call time. */
export function approvalNodeActions(db: () => Db, infra: Infra): Record<string, ActionSchema> {
  const readNode = batchLoader((ids) => approvalNodesById(db(), ids));
  const writeGuarded = nodeDecider(db);
  return {
    approvalNodes: action(A.nodes, (p) => listApprovalNodes(db(), p)),
    approvalNode: action(A.node, async (p) => {
      const node = await readNode(p.node_id);
      if (!node) throw ActorError.notFound('node', p.node_id);
      return node;
    }),
    // An approved design change is applied at once, by deterministic code (apply-change.ts); an approved spec loop
    // goes `iterating` and the approvals actor runs its next iteration (design-loops.ts).
    decideApproval: action(A.decide, async (p) => {
      const node = await decideNode(db(), p, infra.now(), writeGuarded, approveSpecLoop);
      if (node.node_type !== 'design_change' || p.decision !== 'approve') return node;
      return applyChange(db(), node.id, p.decider.approver, infra.now());
    }),
    applyAuthorizedChange: action(A.applyAuthorizedChange, (p) => applyAuthorizedChange(db(), p, infra.now())),
    designLoopIterated: action(A.loopIterated, ({ author, ...it }) =>
      recordLoopIteration(db(), it, author, infra.now()),
    ),
  };
}
