import type { LedgerRecord } from '../../contracts/actions/approvals.actions.ts';
import type { RunView } from '../../contracts/actions/runs.actions.ts';
import { kindOfNodeType, type ApprovalNode } from '../../contracts/actions/twin-approvals.actions.ts';
import type { ApprovalDecision, ApprovalStatus, DecisionRecord, GateFinding } from '../../contracts/approvals.ts';
import { isSpecLoop, loopSummary } from '../../contracts/design-loops.ts';
import type { SourceItem } from './approval.machine.ts';
import { asDecision, gateHistory, strOrNull, surfaceOf } from './decision-records.ts';
import { gateReason, parseFindings } from './findings.ts';
import type { AppliedDecision } from './source-item.ts';

export { asDecision, gateHistory } from './decision-records.ts';

/** A gate the run opened and never decided before it ended (read from its log): its workflow no longer exists. */
export interface UndecidedGate {
  phase: string;
  gate_id: string;
  attempt: number;
  findings: GateFinding[];
  ready: boolean;
  opened_at: string;
}

/** What the queue knows of one run: its view, an undecided gate of an ended run, the queue's own decision rows. */
export interface GateInput {
  view: RunView;
  undecided?: UndecidedGate;
  /** A reject saved for a gate whose workflow no longer exists. */
  saved?: { gate_id: string; decision: DecisionRecord };
  /** A decision recorded while the runs actor was unreachable, not delivered yet. */
  delivering?: { gate_id: string; decision: DecisionRecord };
}

const STATUS_OF_DECISION: Record<ApprovalDecision, ApprovalStatus> = {
  approve: 'approved',
  reject: 'rejected',
  retry: 'retried',
  rework: 'reworked',
};

/**
 * The `gate:<run_id>` item of a run (SPEC "Approval item"): pending while a gate is open (or, once the run ended with
 * a gate undecided, pending with reject only: the workflow no longer exists); after a decision, that decision's status.
 * A run that never reached a gate has no item (null).
 */
export function gateItem(g: GateInput): SourceItem | null {
  const v = g.view;
  const gateName = (phase: string) => v.phases.find((p) => p.id === phase)?.gate.name ?? phase;
  const base = {
    id: `gate:${v.id}`,
    kind: 'gate' as const,
    project_id: v.project_id,
    route: 'dashboard' as const,
    deadline: null,
    requested_by: `design flow ${v.design_flow} (run ${v.id})`,
  };
  const titleOf = (phase: string) =>
    `${gateName(phase)}: ${v.goal.length > 120 ? `${v.goal.slice(0, 117)}...` : v.goal}`;
  const detailOf = (phase: string, gate_id: string, attempt: number) => ({
    run_id: v.id,
    run_status: v.status,
    design_flow: v.design_flow,
    phase,
    gate_id,
    gate_name: gateName(phase),
    attempt,
    decisions: gateHistory(v),
  });
  const summaryOf = (phase: string) => v.phases.find((p) => p.id === phase)?.summary ?? '';
  const idems = v.decisions.map((d) => String(d.idem ?? ''));
  const decided: AppliedDecision[] = v.decisions.map((d) => ({
    instance: String(d.gate_id ?? ''),
    phase: String(d.phase ?? ''),
    attempt:
      Number(
        String(d.gate_id ?? '')
          .split(':')
          .at(-1),
      ) || 0,
    decision: d.decision as ApprovalDecision,
    reason: String(d.reason ?? ''),
    to_phase: String(d.to_phase ?? ''),
    approver: String(d.approver ?? ''),
    decided_at: String(d.decided_at ?? ''),
  }));
  if (v.gate) {
    const x = v.gate;
    const waiting = g.delivering?.gate_id === x.gate_id ? g.delivering.decision : null;
    return {
      ...base,
      status: 'pending',
      title: titleOf(x.phase),
      summary: summaryOf(x.phase),
      created_at: x.opened_at,
      reason_held: gateReason(x.name, x.phase, x.ready, x.findings),
      findings: x.findings,
      allowed_decisions: waiting ? [] : (x.allowed_decisions as ApprovalDecision[]),
      rework_targets: x.rework_targets,
      detail: {
        ...detailOf(x.phase, x.gate_id, x.attempt),
        ready: x.ready,
        stalled: x.stalled,
        retries_left: x.retries_left,
        reworks_left: x.reworks_left,
        overridable: x.overridable === true,
        ...(x.conflict ? { conflict: x.conflict } : {}),
      },
      decision: waiting,
      blocked: waiting
        ? `a ${waiting.decision} decision by ${waiting.approver} was recorded while the runs actor was unreachable; it is delivered to the run when the runs actor is back`
        : null,
      source: { type: 'gate', run_id: v.id, gate_id: x.gate_id, gone: false, idems, decided },
    };
  }
  const u = g.undecided;
  if (u) {
    const reason = gateReason(gateName(u.phase), u.phase, u.ready, u.findings);
    const saved = g.saved?.gate_id === u.gate_id ? g.saved.decision : null;
    const status: ApprovalStatus = saved ? 'rejected' : v.status === 'cancelled' ? 'canceled' : 'pending';
    return {
      ...base,
      status,
      title: titleOf(u.phase),
      summary: v.ended?.message ?? '',
      created_at: u.opened_at,
      reason_held: reason,
      // The workflow cannot be queried for this gate any more: its findings come out of the reason (SPEC "Gate finding").
      findings: parseFindings(reason),
      allowed_decisions: status === 'pending' ? ['reject'] : [],
      rework_targets: [],
      detail: { ...detailOf(u.phase, u.gate_id, u.attempt), ready: u.ready, workflow: 'gone', ended: v.ended },
      decision: saved,
      blocked: null,
      source: { type: 'gate', run_id: v.id, gate_id: u.gate_id, gone: true, idems, decided },
    };
  }
  const last = v.decisions.at(-1);
  if (!last) return null;
  const phase = String(last.phase);
  const decision = asDecision({
    ...last,
    on_behalf_of: last.on_behalf_of ?? null,
    agent: last.agent ?? null,
    surface: surfaceOf(last.surface),
  });
  return {
    ...base,
    status: STATUS_OF_DECISION[last.decision as ApprovalDecision] ?? 'approved',
    title: titleOf(phase),
    summary: summaryOf(phase),
    created_at: String(last.decided_at),
    reason_held: null,
    findings: [],
    allowed_decisions: [],
    rework_targets: [],
    // The decided gate's attempt is the last part of its id (`<run>:<phase>:<attempt>`).
    detail: {
      ...detailOf(phase, String(last.gate_id), Number(String(last.gate_id).split(':').at(-1)) || 0),
      to_phase: last.to_phase ?? '',
    },
    decision,
    blocked: null,
    source: { type: 'gate', run_id: v.id, gate_id: String(last.gate_id), gone: false, idems, decided },
  };
}

const LEDGER_STATUS: Record<LedgerRecord['status'], ApprovalStatus> = {
  awaiting_approval: 'pending',
  approved: 'approved',
  rejected: 'rejected',
  expired: 'expired',
  canceled: 'canceled',
  failed: 'canceled',
};

/** The `tool:<id>` item of a ledger record: held calls, human-authority requests, flow proposals, versions, patches. */
export function ledgerItem(r: LedgerRecord): SourceItem {
  const status = LEDGER_STATUS[r.status];
  const inClient = status === 'pending' && r.route === 'elicitation' && r.call_id !== null;
  return {
    id: `tool:${r.id}`,
    kind: r.kind,
    status,
    title: r.title,
    summary:
      r.kind === 'tool_call'
        ? `held call of ${r.tool_id} (source: ${r.source})`
        : r.tool_id
          ? `filed by ${r.tool_id}`
          : String(r.detail.reason ?? ''),
    project_id: r.project_id,
    created_at: r.created_at,
    deadline: r.deadline,
    route: r.route,
    requested_by: r.requested_by,
    reason_held: r.reason_held,
    findings: [],
    allowed_decisions: status === 'pending' ? ['approve', 'reject'] : [],
    rework_targets: [],
    detail: {
      ...r.detail,
      tool_id: r.tool_id,
      arguments: r.arguments,
      source: r.source,
      call_id: r.call_id,
      session_id: r.session_id,
      window_seconds: r.window_seconds,
      ...(r.error ? { error: r.error } : {}),
    },
    decision: asDecision(r.decision),
    blocked: inClient
      ? 'it is asked in the client (route elicitation): the person answers it there'
      : r.status === 'failed'
        ? (r.error ?? 'it failed')
        : null,
    source: { type: 'ledger', ledger_id: r.id, kind: r.kind },
  };
}

const TITLE = {
  design_change: 'Design change',
  design_loop: 'Design loop',
  sketch: 'Sketch',
  drawing: 'Technical drawing',
} as const;

/** The decision kept in a node's metadata (SPEC "Where each decision is persisted"), or null. */
function nodeDecision(n: ApprovalNode, kind: keyof typeof TITLE): DecisionRecord | null {
  const p = n.properties;
  if (kind === 'design_change') {
    if (!p.reviewer || !['approved', 'rejected', 'applied'].includes(String(p.status))) return null;
    return {
      decision: p.status === 'rejected' ? 'reject' : 'approve',
      reason: String(p.decision_reason ?? ''),
      approver: String(p.reviewer),
      approver_verified: p.reviewer_verified === true,
      surface: surfaceOf(p.decision_surface),
      on_behalf_of: strOrNull(p.decision_on_behalf_of),
      agent: strOrNull(p.decision_agent),
      ...(strOrNull(p.decision_client_id) ? { client_id: String(p.decision_client_id) } : {}),
      decided_at: String(p.decided_at ?? n.updated_at),
    };
  }
  if (p.approved !== true) return null;
  return {
    decision: 'approve',
    reason: String(p.approval_reason ?? ''),
    approver: String(p.approved_by ?? 'unknown'),
    approver_verified: p.approver_verified === true,
    surface: surfaceOf(p.approval_surface),
    on_behalf_of: strOrNull(p.approval_on_behalf_of),
    agent: strOrNull(p.approval_agent),
    ...(strOrNull(p.approval_client_id) ? { client_id: String(p.approval_client_id) } : {}),
    decided_at: String(p.approved_at ?? n.updated_at),
  };
}

const NODE_STATUS: Record<string, ApprovalStatus> = {
  pending: 'pending',
  approved: 'approved',
  /** A design loop running the iteration a person approved; it comes back pending with the new winner. */
  iterating: 'approved',
  rejected: 'rejected',
  applied: 'approved',
  expired: 'expired',
};

/** The `change:`, `design_loop:`, `sketch:` or `drawing:` item of a twin node; null for a node nobody approves. */
export function nodeItem(n: ApprovalNode): SourceItem | null {
  const kind = kindOfNodeType(n.node_type);
  if (!kind) return null;
  const p = n.properties;
  const prefix = kind === 'design_change' ? 'change' : kind;
  const status: ApprovalStatus =
    kind === 'sketch' || kind === 'drawing'
      ? p.approved === true
        ? 'approved'
        : 'pending'
      : (NODE_STATUS[String(p.status ?? 'pending')] ?? 'pending');
  // A loop with a spec runs its iterations itself: approving it without a winner starts the first.
  const noWinner = kind === 'design_loop' && status === 'pending' && !n.winning && !isSpecLoop(n);
  const detail: Record<string, unknown> = { node_id: n.id, node_type: n.node_type, item_ref: n.item_ref };
  if (kind === 'design_change')
    Object.assign(detail, {
      target: p.target ?? null,
      rationale: p.rationale ?? '',
      changes: p.changes ?? {},
      change_status: p.status ?? 'pending',
    });
  if (kind === 'design_loop')
    Object.assign(detail, {
      winning_iteration: n.winning ?? null,
      iterations: p.iterations ?? [],
      ...(isSpecLoop(n) ? { loop: loopSummary(p) } : {}),
    });
  return {
    id: `${prefix}:${n.id}`,
    kind,
    status,
    title: `${TITLE[kind]}: ${n.name}`,
    summary: kind === 'design_change' ? String(p.rationale ?? '') : String(p.summary ?? p.description ?? ''),
    project_id: n.project_id,
    created_at: n.created_at,
    deadline: null,
    route: 'dashboard',
    requested_by: strOrNull(p.requested_by) ?? n.author,
    reason_held: null,
    findings: [],
    allowed_decisions:
      status === 'pending' && !noWinner ? (kind === 'design_change' ? ['approve', 'reject'] : ['approve']) : [],
    rework_targets: [],
    detail,
    decision: asDecision(nodeDecision(n, kind)),
    blocked: noWinner ? 'the design loop names no winning iteration to approve' : null,
    source: { type: 'node', node_id: n.id, kind },
  };
}
