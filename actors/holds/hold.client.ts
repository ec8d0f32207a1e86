import crypto from 'node:crypto';
import { call, type Caller } from '../../brokers/actions.ts';
import { GatewayActions as G, type ToolRequestResult } from '../../contracts/actions/gateway.actions.ts';
import type { HoldEnv, HoldState } from './hold.machine.ts';
import { questionOf } from './hold.elicitation.ts';
import { progressMessage, withdrawReason } from './hold.outcome.ts';
import type { Waiter } from './hold.waiters.ts';

/** Bus deadline of one short call to the caller's gateway node (progress, withdrawal). */
const GATEWAY_CALL_MS = 5000;
/** Slack past the hold window for the question's bus call (the reaper ends the hold first). */
const QUESTION_SLACK_MS = 30_000;

/**
 * Sends one progress report of a held call to its gateway node (`gateway.toolProgress` with the window as total).
 * Resolves whether it reached the client; never throws.
 */
export async function sendProgress(via: Caller, w: Waiter, s: HoldState, fraction: number, total: number, env: HoldEnv): Promise<boolean> {
  if (!w.progressNode) return false;
  try {
    const r = await call(via, G.toolProgress, { call_id: w.callId, progress: fraction, total, message: progressMessage(s, env) }, { nodeID: w.progressNode, timeout: GATEWAY_CALL_MS, retries: 0 });
    return r.delivered;
  } catch {
    return false;
  }
}

/**
 * Puts the question to the client as `elicitation/create` on the call's own stream, else the open GET stream, else
 * stdout (the gateway picks by the held-call streaming rules) and waits for the answer. `delivered: false` comes back
 * at once when the client cannot be asked; a thrown error means the client answered with an error or went away.
 */
export async function putQuestion(via: Caller, w: Waiter, s: HoldState, env: HoldEnv): Promise<ToolRequestResult> {
  if (!w.progressNode) return { delivered: false, reason: 'no gateway holds the call\'s stream' };
  const requestId = `srv-hold-${crypto.randomUUID()}`;
  w.question = requestId;
  try {
    const timeout = (s.window_seconds ?? 0) * 1000 + QUESTION_SLACK_MS;
    const r = await call(via, G.toolRequest, { call_id: w.callId, method: 'elicitation/create', params: questionOf(s, env), request_id: requestId, hold: true }, { nodeID: w.progressNode, timeout, retries: 0 });
    if (w.question === requestId) w.question = undefined;
    return r;
  } catch (err) {
    if (w.question === requestId) w.question = undefined;
    throw err;
  }
}

/**
 * Withdraws the question still awaiting an answer: `notifications/cancelled` (requestId, reason) goes where the question
 * went, before the call's result. Resolves whether it was delivered; never throws.
 */
export async function withdrawQuestion(via: Caller, w: Waiter, end: HoldState): Promise<{ requestId: string; delivered: boolean; reason: string } | undefined> {
  const requestId = w.question;
  if (!requestId || !w.progressNode) return undefined;
  w.question = undefined;
  const reason = withdrawReason(end);
  try {
    const r = await call(via, G.toolWithdraw, { call_id: w.callId, request_id: requestId, reason }, { nodeID: w.progressNode, timeout: GATEWAY_CALL_MS, retries: 0 });
    return { requestId, delivered: r.delivered, reason };
  } catch {
    return { requestId, delivered: false, reason };
  }
}
