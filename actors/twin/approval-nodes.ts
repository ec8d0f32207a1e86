import type { z } from 'zod';
import { batchWriter, isUuid, type Db, type Queryable } from '../../brokers/db/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Decider } from '../../contracts/actions/approvals.actions.ts';
import {
  kindOfNodeType,
  NODE_TYPE_OF_KIND,
  type TwinApprovalActions as A,
  type ApprovalNode,
  type NodeDecideSchema,
} from '../../contracts/actions/twin-approvals.actions.ts';
import { refOf } from './keys.ts';
import type { NodeRow } from './nodes.store.ts';

/** Visible nodes only: committed and approved revisions and records; drafts wait for their run's gate first. */
const VISIBLE = `(revision_status IS NULL OR revision_status IN ('committed', 'approved'))`;
/** Still waiting for a person: changes and loops by their status, sketches and drawings until approved. */
const PENDING = `((node_type IN ('design_change', 'design_loop') AND coalesce(properties->>'status', 'pending') = 'pending')
  OR (node_type IN ('sketch', 'technical_drawing') AND coalesce(properties->>'approved', 'false') <> 'true'))`;
const COLUMNS = 'id, project_id, node_type, name, properties, item_key, revision, author, created_at, updated_at';

type Row = Pick<
  NodeRow,
  | 'id'
  | 'project_id'
  | 'node_type'
  | 'name'
  | 'properties'
  | 'item_key'
  | 'revision'
  | 'author'
  | 'created_at'
  | 'updated_at'
>;

const toApprovalNode = (r: Row): ApprovalNode => ({
  id: r.id,
  project_id: r.project_id,
  node_type: r.node_type,
  name: r.name,
  properties: r.properties ?? {},
  item_ref: r.item_key && r.revision ? refOf(r.item_key, r.revision) : null,
  author: r.author,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** The winning iteration of design loops, one query for all of them. */
async function withWinners(q: Queryable, nodes: ApprovalNode[]): Promise<ApprovalNode[]> {
  const ids = nodes
    .map((n) => (n.node_type === 'design_loop' ? String(n.properties.winning_iteration ?? '') : ''))
    .filter(isUuid);
  if (!ids.length) return nodes;
  const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM twin_nodes WHERE id = ANY($1::uuid[])`, [ids]);
  const byId = new Map(rows.map((r) => [r.id, toApprovalNode(r)]));
  return nodes.map((n) => {
    if (n.node_type !== 'design_loop') return n;
    const w = byId.get(String(n.properties.winning_iteration ?? ''));
    return { ...n, winning: w ? { id: w.id, name: w.name, node_type: w.node_type, item_ref: w.item_ref } : null };
  });
}

/** Nodes of the given kinds by status and project, newest first; with `count_unscoped` also those with no project. */
export async function listApprovalNodes(
  db: Queryable,
  p: z.output<typeof A.nodes.params>,
): Promise<{ nodes: ApprovalNode[]; unscoped_count: number }> {
  const types = p.kinds.map((k) => NODE_TYPE_OF_KIND[k]);
  const status = p.status === 'pending' ? `AND ${PENDING}` : p.status === 'decided' ? `AND NOT ${PENDING}` : '';
  const where = `node_type IN ('design_change', 'design_loop', 'sketch', 'technical_drawing') AND node_type = ANY($1::text[]) AND ${VISIBLE} ${status}`;
  const scoped = p.project_id !== undefined;
  const [list, unscoped] = await Promise.all([
    db.query<Row>(
      `SELECT ${COLUMNS} FROM twin_nodes WHERE ${where}${scoped ? ' AND project_id = $2' : ''} ORDER BY created_at DESC, id`,
      scoped ? [types, p.project_id] : [types],
    ),
    scoped && p.count_unscoped
      ? db.query<{ n: string }>(`SELECT count(*) AS n FROM twin_nodes WHERE ${where} AND project_id IS NULL`, [types])
      : undefined,
  ]);
  return {
    nodes: await withWinners(db, list.rows.map(toApprovalNode)),
    unscoped_count: Number(unscoped?.rows[0].n ?? 0),
  };
}

/** One approvable node by id; unknown, invisible (a draft) or of a type nobody approves is NOT_FOUND. */
export async function approvalNode(q: Queryable, id: string, lock = false): Promise<ApprovalNode> {
  const node = (await approvalNodesById(q, [id], lock)).get(id);
  if (!node) throw ActorError.notFound('node', id);
  return node;
}

/** Approvable nodes by id, one query for all (also the batched read of `approvalNode` actions); `lock` takes their rows. */
export async function approvalNodesById(q: Queryable, ids: string[], lock = false): Promise<Map<string, ApprovalNode>> {
  const { rows } = await q.query<Row>(
    `SELECT ${COLUMNS} FROM twin_nodes WHERE id = ANY($1::uuid[]) AND ${VISIBLE}${lock ? ' FOR UPDATE' : ''}`,
    [ids.filter(isUuid)],
  );
  const nodes = await withWinners(q, rows.filter((r) => kindOfNodeType(r.node_type)).map(toApprovalNode));
  return new Map(nodes.map((n) => [n.id, n]));
}

/** Whether a node is still waiting for a person (the same rule as the PENDING predicate). */
export function nodePending(n: Pick<ApprovalNode, 'node_type' | 'properties'>): boolean {
  if (n.node_type === 'sketch' || n.node_type === 'technical_drawing') return n.properties.approved !== true;
  return (n.properties.status ?? 'pending') === 'pending';
}

/** Metadata of an approval on a work product (SPEC "Where each decision is persisted": sketches, drawings, loop winners). */
export function approvalFields(d: Decider, at: string): Record<string, unknown> {
  return {
    approved: true,
    approved_by: d.approver,
    approved_at: at,
    approver_verified: d.approver_verified,
    approval_surface: d.surface,
    approval_on_behalf_of: d.on_behalf_of,
    approval_agent: d.agent,
    ...(d.client_id ? { approval_client_id: d.client_id } : {}),
  };
}

/** Metadata of a decision on a design-change proposal (SPEC: reviewer, reviewer_verified, decision_surface, ...). */
export function reviewFields(
  decision: 'approve' | 'reject',
  reason: string,
  d: Decider,
  at: string,
): Record<string, unknown> {
  return {
    status: decision === 'approve' ? 'approved' : 'rejected',
    reviewer: d.approver,
    reviewer_verified: d.approver_verified,
    decision_surface: d.surface,
    decision_on_behalf_of: d.on_behalf_of,
    decision_agent: d.agent,
    ...(d.client_id ? { decision_client_id: d.client_id } : {}),
    decision_reason: reason,
    decided_at: at,
  };
}

/** Merges `props` into the node's properties (only while `guard` holds); answers the row as it now is, if it matched. */
export async function patchNode(
  q: Queryable,
  id: string,
  props: Record<string, unknown>,
  approvedBy: string | null,
  now: Date,
  guard = 'TRUE',
): Promise<Row | undefined> {
  const { rows } = await q.query<Row>(
    `UPDATE twin_nodes SET properties = properties || $2::jsonb, approved_by = coalesce($3, approved_by), approved_at = CASE WHEN $3::text IS NULL THEN approved_at ELSE $4 END, updated_at = $4
     WHERE id = $1 AND ${guard} RETURNING ${COLUMNS}`,
    [id, JSON.stringify(props), approvedBy, now],
  );
  return rows[0];
}

/** Why a decision on a node did not apply: it is not one of `kind` (NOT_FOUND), or no longer pending (CONFLICT). */
function refusal(n: ApprovalNode, p: z.output<typeof NodeDecideSchema>): ActorError {
  if (kindOfNodeType(n.node_type) !== p.kind) return ActorError.notFound(p.kind, p.node_id);
  return new ActorError(
    'CONFLICT',
    `${p.kind} ${n.id} is already decided (${n.node_type === 'sketch' || n.node_type === 'technical_drawing' ? 'approved' : String(n.properties.status)})`,
    { node_id: n.id },
  );
}

/**
 * The approval of a design loop that runs its own iterations (actors/twin/design-loops.ts), or undefined for a loop
 * without a spec (approved once, on its winner). Passed in, so this module does not import the loop's.
 */
export type SpecLoopApprover = (
  q: Queryable,
  n: ApprovalNode,
  p: { reason: string; decider: Decider },
  now: Date,
) => Promise<ApprovalNode> | undefined;

/** A guarded decision on a change, sketch or drawing: the properties it merges and who approved (null: not approved). */
export interface NodeDecision {
  id: string;
  kind: Exclude<z.output<typeof NodeDecideSchema>['kind'], 'design_loop'>;
  props: Record<string, unknown>;
  approvedBy: string | null;
  at: Date;
}

/**
 * Decisions on nodes of one kind in one UPDATE ... FROM unnest(...), guarded by the pending rule: only nodes of that
 * kind, visible and still pending match, so of concurrent decisions on one node exactly one comes back.
 */
async function patchGuarded(q: Queryable, ds: NodeDecision[]): Promise<Map<string, Row>> {
  const cols = COLUMNS.split(', ').map((c) => `t.${c}`);
  const { rows } = await q.query<Row>(
    `UPDATE twin_nodes t SET properties = t.properties || v.props::jsonb, approved_by = coalesce(v.approver, t.approved_by),
       approved_at = CASE WHEN v.approver IS NULL THEN t.approved_at ELSE v.at END, updated_at = v.at
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) AS v(id, props, approver, at)
     WHERE t.id = v.id AND t.node_type = $5 AND ${VISIBLE} AND ${PENDING} RETURNING ${cols.join(', ')}`,
    [
      ds.map((d) => d.id),
      ds.map((d) => JSON.stringify(d.props)),
      ds.map((d) => d.approvedBy),
      ds.map((d) => d.at),
      NODE_TYPE_OF_KIND[ds[0].kind],
    ],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * A person's decision on a node. Of concurrent decisions exactly one finds it pending: a change, sketch or drawing is
 * decided by one UPDATE guarded by the pending rule (the row lock makes the others see it decided; `guarded` writes the
 * decisions of one turn of the event loop in one such UPDATE); a design loop, which
 * records the approval on the loop and on its winning iteration node, locks the loop row in a transaction first.
 */
export async function decideNode(
  db: Db,
  p: z.output<typeof NodeDecideSchema>,
  now: Date,
  guarded: (d: NodeDecision) => Promise<Row | undefined> = (d) => patchGuarded(db, [d]).then((m) => m.get(d.id)),
  specLoop?: SpecLoopApprover,
): Promise<ApprovalNode> {
  const at = now.toISOString();
  if (p.kind !== 'design_change' && p.decision !== 'approve') {
    // Only approved; the node must still exist and be of the kind for this to be the answer.
    const n = await approvalNode(db, p.node_id);
    if (kindOfNodeType(n.node_type) !== p.kind || !nodePending(n)) throw refusal(n, p);
    throw new ActorError('VALIDATION_FAILED', `a ${p.kind} is only approved`, {
      issues: [{ path: 'decision', message: 'approve only' }],
    });
  }
  if (p.kind !== 'design_loop') {
    const props =
      p.kind === 'design_change'
        ? reviewFields(p.decision, p.reason, p.decider, at)
        : { ...approvalFields(p.decider, at), approval_reason: p.reason };
    const row = isUuid(p.node_id)
      ? await guarded({
          id: p.node_id,
          kind: p.kind,
          props,
          approvedBy: p.kind === 'design_change' && p.decision !== 'approve' ? null : p.decider.approver,
          at: now,
        })
      : undefined;
    if (row) return toApprovalNode(row);
    throw refusal(await approvalNode(db, p.node_id), p);
  }
  return db.tx(async (q) => {
    const n = await approvalNode(q, p.node_id, true);
    if (kindOfNodeType(n.node_type) !== p.kind || !nodePending(n)) throw refusal(n, p);
    const runsItself = specLoop?.(q, n, p, now);
    if (runsItself) return runsItself;
    if (!n.winning)
      throw new ActorError('CONFLICT', `design loop ${n.id} names no winning iteration to approve`, { node_id: n.id });
    await patchNode(
      q,
      n.winning.id,
      { ...approvalFields(p.decider, at), approval_reason: p.reason, design_loop_id: n.id },
      p.decider.approver,
      now,
    );
    await patchNode(
      q,
      n.id,
      { ...approvalFields(p.decider, at), status: 'approved', approval_reason: p.reason },
      p.decider.approver,
      now,
    );
    return approvalNode(q, n.id);
  });
}

/**
 * The guarded writer of `decideNode` for an actor: the decisions of one turn of the event loop on one kind of node are
 * one guarded UPDATE (a burst of decisions costs one statement per kind, not one per decision).
 */
export function nodeDecider(db: () => Queryable): (d: NodeDecision) => Promise<Row | undefined> {
  return batchWriter<NodeDecision, Row>({
    group: (d) => d.kind,
    key: (d) => d.id,
    write: (_kind, ds) => patchGuarded(db(), ds),
  });
}
