import type { HoldOutcome } from '../../contracts/actions/approvals.actions.ts';
import type { HeldCallOutcome } from '../../contracts/approvals.ts';
import { approvalIdOf, type HoldEnv, type HoldState } from './hold.machine.ts';

/** The Approvals page: a link when `SERVICE_DASHBOARD_URL` is set, else its path on the dashboard. */
export function approvalsPage(env: Pick<HoldEnv, 'dashboardUrl'>): string {
  return env.dashboardUrl ? `${env.dashboardUrl.replace(/\/+$/, '')}/approvals` : "the dashboard's /approvals page";
}

/** Where the question is put, as the error data's `where` says it. */
export function whereOf(s: Pick<HoldState, 'route'>, env: Pick<HoldEnv, 'dashboardUrl'>): string {
  return s.route === 'elicitation'
    ? 'in the client (elicitation/create)'
    : `on the Approvals page (${approvalsPage(env)})`;
}

/** Seconds the call has been held, whole. */
export function heldSeconds(s: Pick<HoldState, 'created_at'>, env: Pick<HoldEnv, 'now'>): number {
  return Math.max(0, Math.round((env.now.getTime() - Date.parse(s.created_at)) / 1000));
}

/** The progress message of a held call: the approval id and the Approvals page (SPEC "Events", `notifications/progress`). */
export function progressMessage(s: HoldState, env: HoldEnv): string {
  const left = s.deadline ? Math.max(0, Math.round((Date.parse(s.deadline) - env.now.getTime()) / 1000)) : 0;
  const ask = s.route === 'elicitation' ? 'answer the question in your client or ' : '';
  return `${s.tool_id} is waiting for a person's approval ${approvalIdOf(s.id)}: ${ask}decide it on the Approvals page (${approvalsPage(env)}); ${left} s left of the ${s.window_seconds} s hold window`;
}

const OUTCOME_OF: Record<string, HeldCallOutcome> = {
  rejected: 'rejected',
  expired: 'timed_out',
  canceled: 'cancelled',
  failed: 'cancelled',
};

function why(s: HoldState, outcome: HeldCallOutcome): string {
  const reason = typeof s.decision?.reason === 'string' && s.decision.reason ? `: ${s.decision.reason}` : '';
  if (outcome === 'rejected')
    return `a person rejected it (${String(s.decision?.approver ?? 'unknown approver')}${reason})`;
  if (outcome === 'timed_out') return `nobody answered within the ${s.window_seconds} s hold window`;
  return `the hold ended before an answer (${s.error ?? 'closed'})`;
}

/**
 * How a held call ends (SPEC "Errors / Unapproved held call"): approved runs; anything else is the -32001
 * `approval_required` outcome with approval_id, route, where, held_seconds and window_seconds, and a message saying the same.
 */
export function outcomeOf(s: HoldState, env: HoldEnv): HoldOutcome {
  const approval_id = approvalIdOf(s.id);
  if (s.status === 'approved') return { outcome: 'approved', approval_id, decision: s.decision ?? {} };
  const outcome = OUTCOME_OF[s.status] ?? 'cancelled';
  const held = heldSeconds(s, env);
  const where = whereOf(s, env);
  const route = s.route ?? 'dashboard';
  const message =
    `${s.tool_id} was not run: it needs a person's approval (${approval_id}, asked ${where}) and ${why(s, outcome)}; ` +
    `outcome ${outcome} after ${held} s of a ${s.window_seconds} s window. Not retryable until a person acts.`;
  return { outcome, approval_id, route, where, held_seconds: held, window_seconds: s.window_seconds ?? 0, message };
}

/** Why the server stops waiting on its question (the reason of `notifications/cancelled`). */
export function withdrawReason(s: HoldState): string {
  if (s.status === 'expired') return `the hold window of ${s.window_seconds} s ended without an answer`;
  if (s.status === 'canceled' || s.status === 'failed') return s.error ?? 'the hold was closed';
  return `decided elsewhere (${s.status})`;
}
