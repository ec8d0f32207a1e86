import type { CallingOptions } from 'moleculer';
import { call, type Caller as Via } from '../../../brokers/actions.ts';
import { CallerChannel, type ToolRequestResult } from '../../../contracts/actions/gateway.actions.ts';

/** The answer of a server-to-client request: the client's result, or why it could not be asked. */
export type CallerReply = ToolRequestResult;

/** Server-to-client requests a running call may make (elicitation, sampling, roots). */
export type CallerRequestMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** Where a call's upward messages go: the call id and the reply address the call carried (`progress_node`). */
export interface CallerAddress {
  callId: string;
  /** The reply address of the caller's stream; unset = the call has no stream (a flow phase, a test), nothing is sent. */
  replyTo?: string;
}

/**
 * The one way an adapter or the holds actor talks back to the caller of a running tool call (ISSUE 13 point 4):
 * progress, notifications, server-to-client requests and their withdrawal. The port is addressed by the call id;
 * whoever holds the caller's stream (the gateway today) serves the channel (`CallerChannel`). Lower actors know
 * this port, never the gateway's actions or its nodes.
 */
export interface CallerPort {
  /** Has the call a stream to report to at all. */
  readonly reachable: boolean;
  /** One progress report (fraction 0..1; `total` rescales it for the client). Resolves whether it was delivered; never throws. */
  progress(fraction: number, message: string, opts?: { total?: number; timeoutMs?: number }): Promise<boolean>;
  /** A `notifications/*` message on the call's stream. Resolves whether it was delivered; never throws. */
  notify(method: string, params: Record<string, unknown>): Promise<boolean>;
  /** A server-to-client request; `delivered: false` when the client cannot be asked; throws when it answered with an error. */
  request(
    method: CallerRequestMethod,
    params: Record<string, unknown>,
    opts: { timeoutMs: number; requestId?: string; hold?: boolean },
  ): Promise<CallerReply>;
  /** Withdraws an unanswered request (`notifications/cancelled` where it went). Resolves whether it was delivered; never throws. */
  withdraw(requestId: string, reason: string): Promise<boolean>;
}

/** Deadline of one short upward message (progress, notification, withdrawal) unless the caller gives one. */
const SHORT_MS = 5000;

/** The caller port of one call, sending through `via` (the actor's context or broker). */
export function callerPort(via: Via, to: CallerAddress): CallerPort {
  const opts = (timeout: number): CallingOptions => ({ nodeID: to.replyTo, timeout, retries: 0 });
  const quiet = async (p: () => Promise<{ delivered: boolean }>): Promise<boolean> => {
    if (!to.replyTo) return false;
    try {
      return (await p()).delivered;
    } catch {
      return false;
    }
  };
  return {
    reachable: to.replyTo !== undefined,
    progress(fraction, message, o = {}) {
      const params = {
        call_id: to.callId,
        progress: Math.min(1, Math.max(0, fraction)),
        message,
        ...(o.total ? { total: o.total } : {}),
      };
      return quiet(() => call(via, CallerChannel.progress, params, opts(o.timeoutMs ?? SHORT_MS)));
    },
    notify(method, params) {
      return quiet(() => call(via, CallerChannel.notify, { call_id: to.callId, method, params }, opts(SHORT_MS)));
    },
    async request(method, params, o) {
      if (!to.replyTo) return { delivered: false, reason: 'the call has no client stream' };
      const p = {
        call_id: to.callId,
        method,
        params,
        ...(o.requestId ? { request_id: o.requestId } : {}),
        ...(o.hold ? { hold: true } : {}),
      };
      return call(via, CallerChannel.request, p, opts(o.timeoutMs));
    },
    withdraw(requestId, reason) {
      return quiet(() =>
        call(via, CallerChannel.withdraw, { call_id: to.callId, request_id: requestId, reason }, opts(SHORT_MS)),
      );
    },
  };
}
