import { z } from 'zod';
import { defineAction } from '../define.ts';
import { LoopIterationSchema } from '../design-loops.ts';
import { DeciderSchema } from './approvals.actions.ts';

/** Approval kinds whose source is a twin node (SPEC "Kind to id prefix and source"). */
export const NodeApprovalKindSchema = z.enum(['design_change', 'design_loop', 'sketch', 'drawing']);
export type NodeApprovalKind = z.infer<typeof NodeApprovalKindSchema>;

/** The twin node type behind each kind (a drawing is a `technical_drawing` work product). */
export const NODE_TYPE_OF_KIND = {
  design_change: 'design_change',
  design_loop: 'design_loop',
  sketch: 'sketch',
  drawing: 'technical_drawing',
} as const satisfies Record<NodeApprovalKind, string>;

/** The kind of a node type, or undefined when a person does not approve nodes of that type. */
export function kindOfNodeType(nodeType: string): NodeApprovalKind | undefined {
  return (Object.keys(NODE_TYPE_OF_KIND) as NodeApprovalKind[]).find((k) => NODE_TYPE_OF_KIND[k] === nodeType);
}

/** A node a person approves, as the queue reads it: the node's own fields and, for a design loop, its winning iteration. */
export const ApprovalNodeSchema = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  node_type: z.string(),
  name: z.string(),
  properties: z.record(z.string(), z.unknown()),
  item_ref: z.string().nullable(),
  author: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Design loops: the winning iteration node (null when the loop names none or it does not exist). */
  winning: z
    .object({ id: z.string(), name: z.string(), node_type: z.string(), item_ref: z.string().nullable() })
    .nullable()
    .optional(),
});
export type ApprovalNode = z.infer<typeof ApprovalNodeSchema>;

/** `twin.approvalNodes`: nodes of the given kinds, pending (not yet decided), decided, or all; unscoped = no project. */
export const ApprovalNodesQuerySchema = z.object({
  kinds: z.array(NodeApprovalKindSchema).min(1),
  status: z.enum(['pending', 'decided', 'all']).default('pending'),
  project_id: z.string().optional(),
  /** With a project filter: also count matching nodes with no project (the list's unscoped_count). */
  count_unscoped: z.boolean().default(false),
});

/** `twin.decideApproval`: a person's decision on a node, applied only while it is still pending (one winner). */
export const NodeDecideSchema = z.object({
  node_id: z.string().min(1),
  kind: NodeApprovalKindSchema,
  decision: z.enum(['approve', 'reject']),
  reason: z.string().default(''),
  decider: DeciderSchema,
});

/** Twin actions of the approvals queue: reads of approvable nodes and the conditional decision write. */
export const TwinApprovalActions = {
  nodes: defineAction(
    'twin.approvalNodes',
    ApprovalNodesQuerySchema,
    z.object({ nodes: z.array(ApprovalNodeSchema), unscoped_count: z.number().int() }),
  ),
  node: defineAction('twin.approvalNode', z.object({ node_id: z.string().min(1) }), ApprovalNodeSchema),
  decide: defineAction('twin.decideApproval', NodeDecideSchema, ApprovalNodeSchema),
  /** A person approved a `twin.approve_engineering_change` request: approve and apply the change, or CONFLICT. */
  applyAuthorizedChange: defineAction(
    'twin.applyAuthorizedChange',
    z.object({
      change_id: z.string().min(1),
      project_id: z.string().nullable(),
      reason: z.string().default(''),
      decider: DeciderSchema,
    }),
    ApprovalNodeSchema,
  ),
  /** The approvals actor ran a design loop's next iteration: record it and name the winner. */
  loopIterated: defineAction(
    'twin.designLoopIterated',
    LoopIterationSchema.extend({ author: z.string() }),
    ApprovalNodeSchema,
  ),
} as const;
