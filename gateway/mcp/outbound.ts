import crypto from 'node:crypto';

/** A JSON-RPC message the server sends (response, notification or server-to-client request). */
export type WireMessage = Record<string, unknown> & { jsonrpc: '2.0' };

/**
 * The way back to the client for one incoming request: its own SSE stream (HTTP POST switched to
 * `text/event-stream`), stdout (stdio), or nothing. `notify` never throws: it reports whether the message left.
 */
export interface Outbound {
  readonly canStream: boolean;
  notify(method: string, params: Record<string, unknown>): boolean;
  /** Sends a server-to-client request and resolves with the client's answer (`result`), or rejects with its error. */
  request(
    method: string,
    params: Record<string, unknown>,
    opts?: { signal?: AbortSignal; id?: string },
  ): Promise<unknown>;
  /** Where a held call's messages go (SPEC "Events", held `tools/call` streaming rules); unset = this same way back. */
  forHold?(hasProgress: boolean): Outbound;
  /** Runs `cb` when the client's stream closes before the answer was sent. */
  onClose?(cb: () => void): void;
}

/** Nowhere to send: a plain JSON reply. */
export const NO_OUTBOUND: Outbound = {
  canStream: false,
  notify: () => false,
  request: () => Promise.reject(new Error('the client cannot be reached for a server request on this reply')),
};

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * Server-to-client requests waiting for the client's answer, routed by id. The client posts its answer as a JSON-RPC
 * response (acknowledged 202). A late or unknown answer is acknowledged and ignored, never applied.
 */
export class PendingRequests {
  private readonly pending = new Map<string, Pending>();

  /** Registers a request (with the id given, else a new one) and returns its id and the promise of the answer. */
  open(signal?: AbortSignal, given?: string): { id: string; answer: Promise<unknown> } {
    const id = given ?? `srv-${crypto.randomUUID()}`;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      signal?.addEventListener(
        'abort',
        () => {
          if (this.pending.delete(id)) reject(signal.reason instanceof Error ? signal.reason : new Error('withdrawn'));
        },
        { once: true },
      );
    });
    return { id, answer };
  }

  /** Routes a client response; false when nobody waits for that id (late, withdrawn or unknown). */
  settle(msg: { id?: unknown; result?: unknown; error?: { message?: string; code?: number } }): boolean {
    const key = String(msg.id);
    const p = this.pending.get(key);
    if (!p) return false;
    this.pending.delete(key);
    if (msg.error) p.reject(Object.assign(new Error(msg.error.message ?? 'client error'), { code: msg.error.code }));
    else p.resolve(msg.result);
    return true;
  }

  /** Stops waiting for an answer; true when one was still awaited (a later answer is then ignored). */
  withdraw(id: string, reason: string): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    this.pending.delete(id);
    p.reject(new Error(reason));
    return true;
  }
}

/** Builds an Outbound over a function that writes one message; requests go through `pending`. */
export function outboundOver(write: (msg: WireMessage) => boolean, pending: PendingRequests): Outbound {
  return {
    canStream: true,
    notify: (method, params) => write({ jsonrpc: '2.0', method, params }),
    async request(method, params, opts) {
      const { id, answer } = pending.open(opts?.signal, opts?.id);
      if (!write({ jsonrpc: '2.0', id, method, params })) {
        pending.withdraw(id, 'the client stream is closed');
      }
      return answer;
    },
  };
}
