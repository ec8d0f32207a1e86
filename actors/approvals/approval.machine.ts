import type { Decider, DecisionTarget } from '../../contracts/actions/approvals.actions.ts';
import type { NodeApprovalKind } from '../../contracts/actions/twin-approvals.actions.ts';
import type { ApprovalDecision, ApprovalItem, ApprovalKind, LedgerKind } from '../../contracts/approvals.ts';
import type { Refusal, SourceItem } from './source-item.ts';
import { etagOf, targetRefusal } from './target.ts';

export type { ItemSource, Refusal, SourceItem } from './source-item.ts';

/** Kinds only a person decides (SPEC Gateway rule 5): an agent is refused unless the deployment allows it. */
export const HUMAN_AUTHORITY_KINDS: readonly ApprovalKind[] = ['human_authority', 'design_loop'];

/** Decisions each kind offers at all (SPEC "Allowed decisions per kind"); any other is 422. */
export const OFFERED: Record<ApprovalKind, ApprovalDecision[]> = {
  gate: ['approve', 'reject', 'retry', 'rework'],
  tool_call: ['approve', 'reject'],
  human_authority: ['approve', 'reject'],
  flow_proposal: ['approve', 'reject'],
  flow_version: ['approve', 'reject'],
  flow_patch: ['approve', 'reject'],
  design_change: ['approve', 'reject'],
  design_loop: ['approve'],
  sketch: ['approve'],
  drawing: ['approve'],
};

/** Decisions that need a reason (SPEC "States / Approval item": reject, retry, rework; a held tool call's reject does not). */
export const REASON_REQUIRED: Record<ApprovalKind, ApprovalDecision[]> = {
  gate: ['reject', 'retry', 'rework'],
  tool_call: [],
  human_authority: ['reject'],
  flow_proposal: ['reject'],
  flow_version: ['reject'],
  flow_patch: ['reject'],
  design_change: ['reject'],
  design_loop: [],
  sketch: [],
  drawing: [],
};

/** Deployment settings the rules read. */
export interface ApprovalEnv {
  /** `SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY`: agents may decide human_authority and design_loop items. */
  allowAgentHumanAuthority: boolean;
}

/** An agent decides (surface agent; on an older route the surface is recorded `unknown` but on-behalf-of stays set). */
const isAgent = (v: Pick<Decider, 'surface' | 'on_behalf_of'> | undefined) =>
  v?.surface === 'agent' || Boolean(v?.on_behalf_of);

/** Why this viewer cannot decide the item now, or null when it can. */
function whyNot(s: SourceItem, viewer: Decider | undefined, env: ApprovalEnv): string | null {
  if (s.status !== 'pending')
    return ['expired', 'canceled'].includes(s.status)
      ? `it is ${s.status}${s.blocked ? ` (${s.blocked})` : ''}; it can no longer be decided`
      : `it is already decided (${s.status})`;
  if (s.blocked) return s.blocked;
  if (isAgent(viewer) && HUMAN_AUTHORITY_KINDS.includes(s.kind) && !env.allowAgentHumanAuthority) {
    return `a ${s.kind} decision needs a person's authority: an agent cannot make it (the gateway does not set SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY=true)`;
  }
  if (!s.allowed_decisions.length) return 'no decision is offered now';
  return null;
}

/** The served item for one viewer (SPEC "Approval item": decidable and not_decidable_reason are per viewer). */
export function forViewer(s: SourceItem, viewer: Decider | undefined, env: ApprovalEnv): ApprovalItem {
  const { blocked: _b, source: _s, ...item } = s;
  const reason = whyNot(s, viewer, env);
  return {
    ...item,
    reason_required_for: REASON_REQUIRED[s.kind].filter((d) => s.allowed_decisions.includes(d)),
    decidable: reason === null,
    not_decidable_reason: reason,
    etag: etagOf(s),
  };
}

/** A person's decision as the queue receives it. */
export interface DecideCommand {
  decision: ApprovalDecision;
  reason: string;
  to_phase: string;
  decider: Decider;
  /** Approve over a gate's overridable findings (decision 0060); recorded in the decision. */
  override_reason?: string;
  /** The item state or gate instance the decider saw (If-Match, phase, attempt); none: whatever stands now. */
  target?: DecisionTarget;
}

/** Where an accepted decision goes: the owning actor of the item (ARCHITECTURE "approvals"), or the queue's own save. */
export type ApprovalEffect =
  | { type: 'runs.decide'; run_id: string; gate_id: string }
  | { type: 'save_gone_gate'; run_id: string; gate_id: string }
  | { type: 'holds.decide'; ledger_id: string; kind: LedgerKind }
  | { type: 'twin.decide'; node_id: string; kind: NodeApprovalKind };

/** Why a gate decision that the kind offers is not allowed now (the 409 rows: not ready, caps used up, workflow gone). */
function notAllowedNow(s: SourceItem, d: ApprovalDecision): string {
  const g = s.detail;
  if (s.source.type === 'gate' && s.source.gone)
    return `the run's workflow no longer exists (${String(g.run_status)}): only reject is offered, to record the decision`;
  if (d === 'approve' && g.ready === false)
    return `gate ${String(g.gate_name)} is not ready: ${s.findings.map((f) => f.message).join('; ') || 'see its findings'}${g.overridable === true ? ' (approve with an override_reason to go on over it)' : ''}`;
  if (d === 'retry') return `retries of ${String(g.phase)} are used up`;
  if (d === 'rework')
    return Number(g.reworks_left) === 0
      ? `reworks of ${String(g.phase)} are used up`
      : `phase ${String(g.phase)} has no earlier phase to rework to`;
  return `${d} is not offered now; offered: ${s.allowed_decisions.join(', ') || 'none'}`;
}

/**
 * The decision rules of the queue (pure), in the order the spec's status table reads: agent on a human-authority kind
 * 403; a target (If-Match, phase, attempt) that is not the item as it stands 409 (422 for phase on a non-gate); not pending or blocked 409; a decision the kind never offers 422; one not allowed now 409 (gate not ready, caps
 * used up, workflow gone); no reason where one is required 422; an invalid to_phase 422. Otherwise the effect that
 * delivers the decision to the item's owner.
 */
export function decide(
  s: SourceItem,
  c: DecideCommand,
  env: ApprovalEnv,
): { refusal: Refusal } | { effect: ApprovalEffect } {
  const refuse = (code: Refusal['code'], message: string) => ({
    refusal: { code, message: `approval ${s.id}: ${message}` },
  });
  if (isAgent(c.decider) && HUMAN_AUTHORITY_KINDS.includes(s.kind) && !env.allowAgentHumanAuthority)
    return refuse('FORBIDDEN', whyNot(s, c.decider, env)!);
  const offTarget = targetRefusal(s, c.target);
  if (offTarget) return { refusal: offTarget };
  if (s.status !== 'pending' || s.blocked) return refuse('CONFLICT', whyNot(s, c.decider, env)!);
  if (!OFFERED[s.kind].includes(c.decision))
    return refuse(
      'VALIDATION_FAILED',
      `${c.decision} is not a decision on a ${s.kind}; offered: ${OFFERED[s.kind].join(', ')}`,
    );
  if (c.override_reason !== undefined) {
    if (s.kind !== 'gate' || c.decision !== 'approve')
      return refuse('VALIDATION_FAILED', 'override_reason goes with approve on a gate only');
    if (s.detail.ready === true) return refuse('VALIDATION_FAILED', 'the gate is ready: nothing to override');
  }
  const overriding = c.decision === 'approve' && s.detail.overridable === true && Boolean(c.override_reason?.trim());
  if (!s.allowed_decisions.includes(c.decision) && !overriding) {
    const badTarget =
      c.decision === 'rework' && Number(s.detail.reworks_left) > 0 && !s.rework_targets.includes(c.to_phase);
    if (!badTarget) return refuse('CONFLICT', notAllowedNow(s, c.decision));
  }
  if (REASON_REQUIRED[s.kind].includes(c.decision) && !c.reason.trim())
    return refuse('VALIDATION_FAILED', `a ${c.decision} decision needs a reason`);
  if (c.decision === 'rework' && !s.rework_targets.includes(c.to_phase)) {
    return refuse(
      'VALIDATION_FAILED',
      `to_phase ${JSON.stringify(c.to_phase)} is not a rework target of ${String(s.detail.phase)}; targets: ${s.rework_targets.join(', ') || 'none'}`,
    );
  }
  const src = s.source;
  if (src.type === 'gate')
    return {
      effect: src.gone
        ? { type: 'save_gone_gate', run_id: src.run_id, gate_id: src.gate_id }
        : { type: 'runs.decide', run_id: src.run_id, gate_id: src.gate_id },
    };
  if (src.type === 'ledger') return { effect: { type: 'holds.decide', ledger_id: src.ledger_id, kind: src.kind } };
  return { effect: { type: 'twin.decide', node_id: src.node_id, kind: src.kind } };
}
