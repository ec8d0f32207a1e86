import { principalLabel } from '../../contracts/principal.ts';
import type { ActionParams } from '../../contracts/define.ts';
import type { Caller } from '../../contracts/actions/adapters.actions.ts';
import type { Decider, HoldsActions, LedgerRecord } from '../../contracts/actions/approvals.actions.ts';
import type { DecisionRecord } from '../../contracts/approvals.ts';

/** A ledger row: the wire record plus the ownership and timer columns only the holds actor reads. */
/**
 * A ledger record with its placement: the holds node waiting on a held call and that node's incarnation, and the
 * gateway node holding the caller's stream with its incarnation (decision 0141: a hold belongs to its client's
 * connection; an incarnation is a broker's instance id, new at every start even under the same node id).
 */
export type HoldState = LedgerRecord & {
  node: string | null;
  node_instance: string | null;
  client_node: string | null;
  client_instance: string | null;
  next_progress_at: string | null;
};

/** The incarnations a held call is placed on when it is recorded (unknown ones are null: only node ids compare). */
export interface HoldPlacement {
  node_instance?: string | null;
  client_instance?: string | null;
}

/** Settings and time the machine decides with (STYLE R4: it never reads a clock or makes an id itself). */
export interface HoldEnv {
  now: Date;
  holdSeconds: number;
  progressHoldSeconds: number;
  progressIntervalSeconds: number;
  dashboardUrl?: string;
}

/** What can happen to a ledger record. */
export type HoldCommand =
  | {
      type: 'decide';
      decision: 'approve' | 'reject';
      reason: string;
      decider: Decider;
      inClient?: boolean;
      outcome?: Record<string, unknown>;
    }
  | { type: 'expire' }
  | { type: 'cancel'; reason: string }
  | { type: 'fallback'; reason: string }
  | { type: 'orphan'; node: string | null };

/** Columns a command changes (applied only while the record is still awaiting_approval). */
export type HoldPatch = Partial<Pick<HoldState, 'status' | 'route' | 'decision' | 'error' | 'detail'>>;

/** `settle`: the hold ended, wake its waiting call. `shown_on_dashboard`: the hold is now in the queue for a person. */
export type HoldEffect = { type: 'settle' } | { type: 'shown_on_dashboard' };

/** Why a command is refused: the record is no longer pending, or the question is put elsewhere. */
export type HoldRefusal = { code: 'CONFLICT'; message: string };

/** What the machine decided: the columns to change and the effects to run, or why it refuses. */
export type HoldDecided = { patch?: HoldPatch; effects: HoldEffect[]; refusal?: HoldRefusal };

/** What a command needs of the record besides being awaiting_approval; the store checks it in the same UPDATE. */
export type HoldGuard = { notInClient?: true; hasCall?: true };

/** Parameters of `holds.request`, defaults applied. */
export type HoldRequest = ActionParams<typeof HoldsActions.request>;
/** Parameters of `holds.file`, defaults applied. */
export type HoldFile = ActionParams<typeof HoldsActions.file>;

/** The normalized approval id of a ledger record (SPEC "Approval item": prefix `tool:`). */
export const approvalIdOf = (id: string): string => `tool:${id}`;

/** The ledger id behind an approval id: `tool:<id>` or the bare id. */
export const ledgerIdOf = (id: string): string => (id.startsWith('tool:') ? id.slice(5) : id);

/** SPEC Limits: without a progress channel the short window; with one the longer window, capped by an explicit gate timeout. */
export function holdWindow(hasProgress: boolean, gateTimeout: number | undefined, env: HoldEnv): number {
  if (!hasProgress) return env.holdSeconds;
  return gateTimeout !== undefined && gateTimeout > 0
    ? Math.min(env.progressHoldSeconds, gateTimeout)
    : env.progressHoldSeconds;
}

/** Who asked, as the queue shows it ("tagged with the caller"). */
export function callerLabel(c: Caller): string {
  if (c.principal) return `${principalLabel(c.principal)} (${c.principal.kind}, ${c.kind} over ${c.transport})`;
  return `${c.client ?? 'an MCP client'} (${c.kind} over ${c.transport}${c.session_id ? `, session ${c.session_id}` : ''})`;
}

/**
 * A held call's record: awaiting_approval with its window as a deadline timer; the question goes to the client only when
 * the gateway asks this session for decisions (`decision_elicitation`, SERVICE_ELICITATION_APPROVALS) and holds the
 * call's stream, else to the dashboard queue: a client that merely declared elicitation never approves its own call.
 */
export function newHeldCall(
  p: HoldRequest,
  id: string,
  node: string,
  env: HoldEnv,
  placed: HoldPlacement = {},
): HoldState {
  const window = p.hold_seconds ?? holdWindow(p.has_progress, p.timeout_seconds, env);
  const now = env.now.toISOString();
  const projectArg = typeof p.arguments.project_id === 'string' ? p.arguments.project_id : null;
  return {
    id,
    kind: 'tool_call',
    status: 'awaiting_approval',
    tool_id: p.tool_id,
    title: `Run ${p.tool_id}`,
    arguments: p.arguments,
    detail: {
      tool_id: p.tool_id,
      arguments: p.arguments,
      caller: p.caller,
      source: 'mcp',
      has_progress: p.has_progress,
    },
    project_id: p.caller.project_id ?? projectArg,
    requested_by: callerLabel(p.caller),
    reason_held: p.reason_held,
    route: p.caller.decision_elicitation && p.progress_node ? 'elicitation' : 'dashboard',
    source: 'mcp',
    call_id: p.call_id,
    session_id: p.caller.session_id ?? null,
    window_seconds: window,
    deadline: new Date(env.now.getTime() + window * 1000).toISOString(),
    decision: null,
    error: null,
    created_at: now,
    updated_at: now,
    node,
    node_instance: placed.node_instance ?? null,
    client_node: p.progress_node ?? null,
    client_instance: p.progress_node ? (placed.client_instance ?? null) : null,
    next_progress_at: p.has_progress ? now : null,
  };
}

/** A request filed for a person with no call waiting on it: dashboard only, no window. */
export function newFiled(p: HoldFile, id: string, env: HoldEnv): HoldState {
  const now = env.now.toISOString();
  return {
    id,
    kind: p.kind,
    status: 'awaiting_approval',
    tool_id: p.tool_id,
    title: p.title,
    arguments: p.arguments,
    detail: { ...p.detail, ...(p.tool_id ? { tool_id: p.tool_id } : {}), arguments: p.arguments },
    project_id: p.project_id,
    requested_by: p.requested_by,
    reason_held: null,
    route: 'dashboard',
    source: p.tool_id ? 'mcp' : 'service',
    call_id: null,
    session_id: null,
    window_seconds: null,
    deadline: null,
    decision: null,
    error: null,
    created_at: now,
    updated_at: now,
    node: null,
    node_instance: null,
    client_node: null,
    client_instance: null,
    next_progress_at: null,
  };
}

/** The error kept on a held call whose waiting call was lost (SPEC "Tool-approval ledger records"). */
export function orphanMessage(node: string | null): string {
  return `orphaned by a restart: the call waiting for this approval ended when the service restarted${node ? ` (node ${node})` : ''}; kept for audit, it can no longer be approved`;
}

function notPending(s: HoldState): HoldRefusal {
  const id = approvalIdOf(s.id);
  if (s.status === 'approved' || s.status === 'rejected')
    return { code: 'CONFLICT', message: `approval ${id} is already decided (${s.status})` };
  return {
    code: 'CONFLICT',
    message: `approval ${id} is ${s.status === 'failed' ? 'failed' : s.status}${s.error ? `: ${s.error}` : ''}; it can no longer be decided`,
  };
}

/** The decision record of a person's answer (SPEC "Decision record"). */
export function decisionRecord(cmd: Extract<HoldCommand, { type: 'decide' }>, env: HoldEnv): DecisionRecord {
  return {
    decision: cmd.decision,
    reason: cmd.reason,
    ...cmd.decider,
    decided_at: env.now.toISOString(),
    ...(cmd.outcome ? { outcome: cmd.outcome } : {}),
  };
}

/**
 * A command's move when its guard holds, without reading the record: the store applies it in one conditional UPDATE
 * (one round trip, and exactly one of concurrent moves wins). Undefined for moves that depend on the record (fallback).
 */
export function planOf(
  cmd: HoldCommand,
  env: HoldEnv,
): (HoldDecided & { patch: HoldPatch; guard: HoldGuard }) | undefined {
  const settle: HoldEffect[] = [{ type: 'settle' }];
  switch (cmd.type) {
    case 'decide':
      return {
        patch: { status: cmd.decision === 'approve' ? 'approved' : 'rejected', decision: decisionRecord(cmd, env) },
        effects: settle,
        guard: cmd.inClient ? {} : { notInClient: true },
      };
    case 'cancel':
      return { patch: { status: 'canceled', error: cmd.reason }, effects: settle, guard: {} };
    case 'orphan':
      return { patch: { status: 'failed', error: orphanMessage(cmd.node) }, effects: settle, guard: { hasCall: true } };
    case 'expire':
    case 'fallback':
      return undefined;
  }
}

/**
 * The hold lifecycle (SPEC "States": approval item, ledger records, held-call outcomes). Only an awaiting record moves;
 * a decision from the queue is refused while the question is put in the client (route elicitation, the 409 row).
 */
export function decide(s: HoldState, cmd: HoldCommand, env: HoldEnv): HoldDecided {
  if (s.status !== 'awaiting_approval') return { effects: [], refusal: notPending(s) };
  if (cmd.type === 'fallback') {
    if (s.route === 'dashboard') return { effects: [] };
    return {
      patch: { route: 'dashboard', detail: { ...s.detail, elicitation_failed: cmd.reason } },
      effects: [{ type: 'shown_on_dashboard' }],
    };
  }
  if (cmd.type === 'expire') {
    if (!s.deadline || Date.parse(s.deadline) > env.now.getTime())
      return { effects: [], refusal: { code: 'CONFLICT', message: 'the hold window has not ended' } };
    return {
      patch: { status: 'expired', error: `nobody answered within the ${s.window_seconds} s hold window` },
      effects: [{ type: 'settle' }],
    };
  }
  const plan = planOf(cmd, env)!;
  if (plan.guard.notInClient && s.route === 'elicitation' && s.call_id) {
    return {
      effects: [],
      refusal: {
        code: 'CONFLICT',
        message: `approval ${approvalIdOf(s.id)} is asked in the client (route elicitation); the person answers it there`,
      },
    };
  }
  if (plan.guard.hasCall && !s.call_id)
    return { effects: [], refusal: { code: 'CONFLICT', message: 'a filed request has no waiting call to lose' } };
  return plan;
}

/** A due progress report of a held call: seconds held of the window, and when the next one is due (a timer row). */
export function progressDue(
  s: HoldState,
  env: HoldEnv,
): { fraction: number; total: number; next_progress_at: string } | undefined {
  if (s.status !== 'awaiting_approval' || !s.next_progress_at || !s.window_seconds) return undefined;
  if (Date.parse(s.next_progress_at) > env.now.getTime()) return undefined;
  const held = Math.max(0, (env.now.getTime() - Date.parse(s.created_at)) / 1000);
  return {
    fraction: Math.min(1, held / s.window_seconds),
    total: s.window_seconds,
    next_progress_at: new Date(env.now.getTime() + env.progressIntervalSeconds * 1000).toISOString(),
  };
}
