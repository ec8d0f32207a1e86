import type { Context, ServiceHooks } from 'moleculer';
import type { z } from 'zod';
import { TwinApprovalActions } from '../../contracts/actions/twin-approvals.actions.ts';
import { TwinViewActions } from '../../contracts/actions/twin-views.actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import { TWIN_CHANGED_EVENT, type TwinChanged } from '../../contracts/actions/change-events.ts';
import { localName, type ActionDef } from '../../contracts/define.ts';

type Pick<A> =
  A extends ActionDef<infer P, infer R> ? (p: z.output<P>, r: z.output<R>) => TwinChanged | undefined : never;

const keyOfRef = (ref: string) => ref.slice(0, ref.lastIndexOf('@'));
const revOfRef = (ref: string) => Number(ref.slice(ref.lastIndexOf('@') + 1));

/**
 * What each committed write tells the world (TWIN_CHANGED_EVENT), from its params and result. A write inside a run is a
 * draft only that run sees, so it is announced when its change set commits, not before.
 */
const writeDefinition: Pick<typeof TwinActions.writeDefinition> = (_p, r) =>
  r.revision_status === 'draft'
    ? undefined
    : {
        project_id: r.node.project_id,
        items: [{ key: r.item_key, revision: r.revision }],
        nodes: [{ id: r.node.id, node_type: r.node.node_type }],
      };

const recordNode: Pick<typeof TwinActions.recordNode> = (_p, r) => ({
  project_id: r.node.project_id,
  items: [],
  nodes: [{ id: r.node.id, node_type: r.node.node_type }],
});

const commitChangeSet: Pick<typeof TwinActions.commitChangeSet> = (p, r) =>
  r.status !== 'committed'
    ? undefined
    : {
        project_id: p.project_id,
        items: r.committed.map((c) => ({ key: c.key, revision: revOfRef(c.ref) })),
        nodes: [...r.committed.map((c) => ({ id: c.node_id })), ...r.stale_marked.map((id) => ({ id }))],
      };

const importFile: Pick<typeof TwinViewActions.importFile> = (p, r) => ({
  project_id: p.project_id,
  items: r.item_key && r.revision ? [{ key: r.item_key, revision: r.revision }] : [],
  nodes: [{ id: r.node_id, node_type: r.node_type }],
});

const addConstraint: Pick<typeof TwinViewActions.addConstraint> = (p, r) => ({
  project_id: p.projectId,
  items: [{ key: r.item_key, revision: r.revision }],
  nodes: r.setWorkProductId ? [{ id: r.setWorkProductId }] : [],
});

/** An approved design change applied at once makes the target's next revision (`applied_ref`). */
const decideApproval: Pick<typeof TwinApprovalActions.decide> = (_p, r) => {
  const applied = r.properties.applied_ref;
  return {
    project_id: r.project_id,
    items: typeof applied === 'string' ? [{ key: keyOfRef(applied), revision: revOfRef(applied) }] : [],
    nodes: [{ id: r.id, node_type: r.node_type }],
  };
};

const PICKERS: [ActionDef<z.ZodType, z.ZodType>, (p: never, r: never) => TwinChanged | undefined][] = [
  [TwinActions.writeDefinition, writeDefinition],
  [TwinActions.recordNode, recordNode],
  [TwinActions.commitChangeSet, commitChangeSet],
  [TwinViewActions.importFile, importFile],
  [TwinViewActions.addConstraint, addConstraint],
  [TwinApprovalActions.decide, decideApproval],
];

/**
 * `after` hooks of the twin actor: once a write action answered (its transaction committed), broadcast what changed.
 * Best effort: a lost event only means a subscribed MCP client is not told; the write itself stands.
 */
export function changeEventHooks(): ServiceHooks {
  const after: Record<string, (ctx: Context, res: unknown) => unknown> = {};
  for (const [def, pick] of PICKERS) {
    after[localName(def)] = (ctx, res) => {
      const change = (pick as (p: unknown, r: unknown) => TwinChanged | undefined)(ctx.params, res);
      if (change) void Promise.resolve(ctx.broadcast(TWIN_CHANGED_EVENT, change)).catch(() => undefined);
      return res;
    };
  }
  return { after };
}
