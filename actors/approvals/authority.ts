import { call, type Caller } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { RunsActions } from '../../contracts/actions/runs.actions.ts';
import { TwinApprovalActions, type ApprovalNode } from '../../contracts/actions/twin-approvals.actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import { AttemptPromotionRequestSchema, type AttemptPromotionResponse } from '../../contracts/approvals.ts';
import type { DecideCommand, SourceItem } from './approval.machine.ts';
import { nextStep } from './design-loop.ts';
import { evaluatePromotion, type RunGates } from './promotion.ts';
import { promotionClaims } from './promotion-claims.ts';

/** What an approved human-authority request did, and a loop to run once the decision is recorded. */
export interface AuthorityOutcome {
  outcome: Record<string, unknown>;
  loop?: ApprovalNode;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The run a promotion is judged with: the request's `run_id`, else the run of the caller that filed it. */
async function runOf(via: Caller, item: SourceItem): Promise<RunGates | null> {
  const args = (item.detail.arguments ?? {}) as Record<string, unknown>;
  const id = str(args.run_id) ?? str(item.detail.run_id);
  if (!id) return null;
  const run = await call(via, RunsActions.get, { run_id: id });
  return { id: run.id, phases: run.phases.map((p) => ({ id: p.id, status: p.status })) };
}

/**
 * `twin.attempt_promotion` approved by a person: the criteria are evaluated on the project's compliance checklist and
 * the run's gates; met, the project's `maturity` item gets its next revision at the level (the promotion record,
 * committed), else CONFLICT with the failing criteria and the request stays pending.
 */
async function promote(via: Caller, item: SourceItem, c: DecideCommand): Promise<AuthorityOutcome> {
  const parsed = AttemptPromotionRequestSchema.safeParse(item.detail.arguments ?? {});
  if (!parsed.success)
    throw new ActorError('CONFLICT', `approval ${item.id}: the request is not a valid attempt_promotion; reject it`, {
      approval_id: item.id,
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  const req = parsed.data;
  const project = item.project_id ?? req.projectId;
  const [claims, run] = await Promise.all([promotionClaims(via, project), runOf(via, item)]);
  const verdict = evaluatePromotion(req, claims, run);
  const response: AttemptPromotionResponse = {
    gateId: item.id,
    level: req.level,
    promoted: verdict.promoted,
    blockedReason: verdict.blockedReason,
    decidedBy: c.decider.approver,
    comment: req.comment ?? null,
    results: verdict.results as unknown as AttemptPromotionResponse['results'],
  };
  if (!verdict.promoted)
    throw new ActorError('CONFLICT', `approval ${item.id}: not promoted: ${verdict.blockedReason}`, {
      approval_id: item.id,
      ...response,
    });
  const written = await call(via, TwinActions.writeDefinition, {
    project_id: project,
    item_type: 'maturity',
    name: 'maturity',
    properties: { ...response, run_id: run?.id ?? null, approval_reason: c.reason },
    change_reason: `promotion to ${String(req.level)} approved by ${c.decider.approver} (${item.id})`,
    writer: { author: c.decider.approver },
  });
  return { outcome: { ...response, item_ref: written.item_ref, node_id: written.node.id } };
}

/** `twin.approve_engineering_change` approved: the change is approved and applied atomically, or CONFLICT (409). */
async function applyChange(via: Caller, item: SourceItem, c: DecideCommand): Promise<AuthorityOutcome> {
  const args = (item.detail.arguments ?? {}) as Record<string, unknown>;
  const change = await call(via, TwinApprovalActions.applyAuthorizedChange, {
    change_id: String(args.change_id ?? ''),
    project_id: item.project_id ?? null,
    reason: c.reason,
    decider: c.decider,
  });
  return {
    outcome: { change_id: change.id, status: change.properties.status, applied_ref: change.properties.applied_ref },
  };
}

/** `twin.approve_design_loop` approved: the loop's winner is approved, and a spec loop runs its next iteration. */
async function approveLoop(via: Caller, item: SourceItem, c: DecideCommand): Promise<AuthorityOutcome> {
  const args = (item.detail.arguments ?? {}) as Record<string, unknown>;
  const id = String(args.design_loop_id ?? '');
  const loop = await call(via, TwinApprovalActions.node, { node_id: id }).catch(() => undefined);
  if (!loop || loop.node_type !== 'design_loop' || (item.project_id && loop.project_id !== item.project_id))
    throw new ActorError('CONFLICT', `approval ${item.id}: ${id} is not a design loop of this project`, {
      approval_id: item.id,
    });
  const decided = await call(via, TwinApprovalActions.decide, {
    node_id: loop.id,
    kind: 'design_loop',
    decision: 'approve',
    reason: c.reason,
    decider: c.decider,
  });
  return {
    outcome: { ...nextStep(decided), approved_iteration: loop.winning?.id ?? null },
    loop: decided.properties.status === 'iterating' ? decided : undefined,
  };
}

const EFFECTS: Record<string, (via: Caller, item: SourceItem, c: DecideCommand) => Promise<AuthorityOutcome>> = {
  'twin.attempt_promotion': promote,
  'twin.approve_engineering_change': applyChange,
  'twin.approve_design_loop': approveLoop,
};

/**
 * The effect of a person's approval of a human-authority request (issue 18), run before the ledger records the
 * approval: a refusal (CONFLICT) leaves the request pending with nothing written. A request of a tool this service
 * does not know has no effect (an empty outcome).
 */
export function authorityEffect(via: Caller, item: SourceItem, c: DecideCommand): Promise<AuthorityOutcome> {
  const fx = EFFECTS[String(item.detail.tool_id ?? '')];
  return fx ? fx(via, item, c) : Promise.resolve({ outcome: {} });
}
