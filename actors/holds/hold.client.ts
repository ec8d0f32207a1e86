import crypto from 'node:crypto';
import type { Caller } from '../../brokers/actions.ts';
import { callerPort, type CallerReply } from '../adapters/kit/caller-port.ts';
import type { HoldEnv, HoldState } from './hold.machine.ts';
import { questionOf } from './hold.elicitation.ts';
import { progressMessage, withdrawReason } from './hold.outcome.ts';
import type { Waiter } from './hold.waiters.ts';

/** Slack past the hold window for the question's bus call (the reaper ends the hold first). */
const QUESTION_SLACK_MS = 30_000;

/**
 * Sends one progress report of a held call through its caller port (the window as total).
 * Resolves whether it reached the client; never throws.
 */
export async function sendProgress(
  via: Caller,
  w: Waiter,
  s: HoldState,
  fraction: number,
  total: number,
  env: HoldEnv,
): Promise<boolean> {
  return portOf(via, w).progress(fraction, progressMessage(s, env), { total });
}

/**
 * Puts the question to the client as `elicitation/create` on the call's own stream, else the open GET stream, else
 * stdout (the gateway picks by the held-call streaming rules) and waits for the answer. `delivered: false` comes back
 * at once when the client cannot be asked; a thrown error means the client answered with an error or went away.
 */
export async function putQuestion(via: Caller, w: Waiter, s: HoldState, env: HoldEnv): Promise<CallerReply> {
  if (!w.progressNode) return { delivered: false, reason: "no gateway holds the call's stream" };
  const requestId = `srv-hold-${crypto.randomUUID()}`;
  w.question = requestId;
  try {
    const timeout = (s.window_seconds ?? 0) * 1000 + QUESTION_SLACK_MS;
    const r = await portOf(via, w).request('elicitation/create', questionOf(s, env), {
      timeoutMs: timeout,
      requestId,
      hold: true,
    });
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
export async function withdrawQuestion(
  via: Caller,
  w: Waiter,
  end: HoldState,
): Promise<{ requestId: string; delivered: boolean; reason: string } | undefined> {
  const requestId = w.question;
  if (!requestId || !w.progressNode) return undefined;
  w.question = undefined;
  const reason = withdrawReason(end);
  return { requestId, delivered: await portOf(via, w).withdraw(requestId, reason), reason };
}

/** The held call's caller port: upward messages go to the reply address the call carried. */
function portOf(via: Caller, w: Waiter) {
  return callerPort(via, { callId: w.callId, replyTo: w.progressNode });
}
