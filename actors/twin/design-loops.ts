import type { Db, Queryable } from '../../brokers/db/index.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Decider } from '../../contracts/actions/approvals.actions.ts';
import type { ApprovalNode } from '../../contracts/actions/twin-approvals.actions.ts';
import { bestOf, DesignLoopSpecSchema, isSpecLoop, type LoopIteration } from '../../contracts/design-loops.ts';
import { approvalFields, approvalNode, patchNode, type SpecLoopApprover } from './approval-nodes.ts';
import { insertNode } from './nodes.store.ts';

/**
 * A person approves a spec loop (inside the decision's transaction, the loop row locked): the winning iteration so far
 * gets the approval (SPEC "Where each decision is persisted": design loops on the winning iteration node), and the
 * loop goes `iterating` while candidates remain (the approvals actor then runs the next one), else `approved`: done.
 */
export const approveSpecLoop: SpecLoopApprover = (q, n, p, now) =>
  isSpecLoop(n) ? approveLoopStep(q, n, p, now) : undefined;

async function approveLoopStep(
  q: Queryable,
  n: ApprovalNode,
  p: { reason: string; decider: Decider },
  now: Date,
): Promise<ApprovalNode> {
  const at = now.toISOString();
  const spec = DesignLoopSpecSchema.parse(n.properties);
  const next = Number(n.properties.next_index ?? 0);
  const approval = { ...approvalFields(p.decider, at), approval_reason: p.reason };
  if (n.winning) await patchNode(q, n.winning.id, { ...approval, design_loop_id: n.id }, p.decider.approver, now);
  const log = Array.isArray(n.properties.approval_log) ? n.properties.approval_log : [];
  await patchNode(
    q,
    n.id,
    {
      ...approval,
      status: next < spec.candidates.length ? 'iterating' : 'approved',
      approval_log: [...log, { ...approval, winning_iteration: n.winning?.id ?? null, next_index: next }],
    },
    p.decider.approver,
    now,
  );
  return approvalNode(q, n.id);
}

/** The tool's result data as kept on an iteration: entries of up to 2,000 JSON characters, 8,000 in all. */
function summaryOf(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let total = 0;
  for (const [k, v] of Object.entries(data)) {
    const size = JSON.stringify(v ?? null).length;
    if (size > 2000 || total + size > 8000) continue;
    out[k] = v;
    total += size;
  }
  return out;
}

/**
 * Records iteration `index` of a loop that is `iterating` at that index: a `design_iteration` node with the candidate,
 * its score (or the error) and the result's summary; the loop names the best-scoring iteration as its winner and is
 * `pending` again for the next approval. One transaction. A repeat of the same index finds the loop moved on and
 * changes nothing (CONFLICT), so an iteration is never recorded twice.
 */
export async function recordLoopIteration(db: Db, it: LoopIteration, author: string, now: Date): Promise<ApprovalNode> {
  return db.tx(async (q) => {
    const loop = await approvalNode(q, it.loop_id, true);
    const spec = DesignLoopSpecSchema.safeParse(loop.properties);
    const next = Number(loop.properties.next_index ?? 0);
    if (
      loop.node_type !== 'design_loop' ||
      !spec.success ||
      loop.properties.status !== 'iterating' ||
      next !== it.index
    )
      throw new ActorError('CONFLICT', `design loop ${it.loop_id} is not running iteration ${it.index + 1}`, {
        node_id: it.loop_id,
      });
    const node = await insertNode(
      q,
      {
        project_id: loop.project_id,
        node_type: 'design_iteration',
        name: `${loop.name} iteration ${it.index + 1}`,
        properties: {
          design_loop_id: loop.id,
          index: it.index,
          tool: spec.data.tool,
          parameter: spec.data.parameter,
          value: it.value,
          metric: spec.data.metric,
          score: it.score,
          error: it.error,
          result: summaryOf(it.result),
          output_files: it.output_files,
        },
        author,
      },
      now,
    );
    const iterations = [...(Array.isArray(loop.properties.iterations) ? loop.properties.iterations : []), node.id];
    const scores = [...(Array.isArray(loop.properties.scores) ? loop.properties.scores : []), it.score] as (
      number | null
    )[];
    const best = bestOf(scores, spec.data.goal);
    await patchNode(
      q,
      loop.id,
      {
        status: 'pending',
        approved: false,
        next_index: next + 1,
        iterations,
        scores,
        winning_iteration: best < 0 ? null : iterations[best],
      },
      null,
      now,
    );
    return approvalNode(q, loop.id);
  });
}
