import type { Outbound } from './outbound.ts';

/** One tool call this gateway node is waiting on: where its progress goes and how a cancellation finds it. */
export interface InflightCall {
  callId: string;
  requestKey: string;
  dialect: 'mcp' | 'legacy';
  requestId: string | number;
  progressToken?: string | number;
  /** The session's `logging/setLevel` level: log notifications below it are dropped. */
  logLevel: string;
  out: Outbound;
  lastProgress: number;
  cancelled: boolean;
  /** The session declared elicitation at initialize. */
  canElicit?: boolean;
  /** A person's decision may be asked in this client (the caller's `decision_elicitation`): a hold's question may go there. */
  asksDecisions?: boolean;
  /** Last progress value a hold reported (seconds of its window): the tool's own progress continues above it. */
  progressBase?: number;
}

/**
 * Calls in flight on this node, by call id (progress from adapters) and by `<session>:<request id>` (a client's
 * `notifications/cancelled`). Progress is forwarded only when it can reach the client and never goes backwards.
 */
export class InflightCalls {
  private readonly byCall = new Map<string, InflightCall>();
  private readonly byRequest = new Map<string, InflightCall>();

  static key(sessionKey: string, requestId: string | number): string {
    return `${sessionKey}:${typeof requestId}:${String(requestId)}`;
  }

  add(call: InflightCall): () => void {
    this.byCall.set(call.callId, call);
    this.byRequest.set(call.requestKey, call);
    return () => {
      this.byCall.delete(call.callId);
      if (this.byRequest.get(call.requestKey) === call) this.byRequest.delete(call.requestKey);
    };
  }

  findRequest(requestKey: string): InflightCall | undefined {
    return this.byRequest.get(requestKey);
  }

  get(callId: string): InflightCall | undefined {
    const c = this.byCall.get(callId);
    return c && !c.cancelled ? c : undefined;
  }

  /** The call even when the client cancelled it (a hold still withdraws its question on that call's stream). */
  peek(callId: string): InflightCall | undefined {
    return this.byCall.get(callId);
  }

  /**
   * Delivers progress to the caller; false when the call is unknown here or has no way to report it. With `total` (a
   * hold) the client sees `fraction * total` of `total`; the tool's own fractions then continue above the last of
   * those, so the value never goes back (MCP: progress increases with each notification).
   */
  progress(callId: string, fraction: number, message: string, total?: number): boolean {
    const c = this.byCall.get(callId);
    if (!c || c.cancelled) return false;
    if (c.dialect === 'mcp') {
      if (c.progressToken === undefined) return false;
      const base = c.progressBase ?? 0;
      const f = Math.min(1, fraction);
      const raw = total !== undefined ? Math.round(f * total * 1000) / 1000 : base + f;
      const value = Math.max(c.lastProgress, raw);
      c.lastProgress = value;
      if (total !== undefined) c.progressBase = value;
      return c.out.notify('notifications/progress', {
        progressToken: c.progressToken,
        progress: value,
        total: total ?? base + 1,
        message,
      });
    }
    const value = Math.max(c.lastProgress, Math.min(1, fraction));
    c.lastProgress = value;
    return c.out.notify('tool/result', { request_id: String(c.requestId), progress: value, message });
  }
}
