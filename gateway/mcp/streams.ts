import type { FastifyReply } from 'fastify';
import { NO_OUTBOUND, outboundOver, type Outbound, type PendingRequests, type WireMessage } from './outbound.ts';
import { SseWriter } from './sse.ts';

/** The long-lived `GET /mcp` stream of each session held by this node (server-to-client requests go down it). */
export class StandaloneStreams {
  private readonly streams = new Map<string, SseWriter>();

  open(sessionId: string, writer: SseWriter): void {
    this.streams.get(sessionId)?.end();
    this.streams.set(sessionId, writer);
  }

  close(sessionId: string, writer?: SseWriter): void {
    const cur = this.streams.get(sessionId);
    if (!cur || (writer && cur !== writer)) return;
    this.streams.delete(sessionId);
    cur.end();
  }

  get(sessionId: string): SseWriter | undefined {
    const w = this.streams.get(sessionId);
    return w && !w.closed ? w : undefined;
  }

  has(sessionId: string): boolean {
    return this.get(sessionId) !== undefined;
  }

  /** An Outbound over the session's GET stream, or nothing when none is open here. */
  outbound(sessionId: string | undefined, pending: PendingRequests): Outbound {
    if (!sessionId || !this.has(sessionId)) return NO_OUTBOUND;
    return outboundOver((msg) => this.get(sessionId)?.send(msg) ?? false, pending);
  }

  keepAlive(): void {
    for (const w of this.streams.values()) w.comment();
  }
}

/**
 * The reply to one POSTed request. It stays JSON until something must be sent before the result (progress, a server
 * request) and the client accepts `text/event-stream`; then it switches to SSE, carries those messages, then the
 * result, and closes. When it cannot stream, messages fall back to the session's open GET stream.
 */
export class PostReply implements Outbound {
  private readonly writer: SseWriter;
  private readonly fallback: Outbound;
  private readonly streamable: boolean;
  private readonly via: Outbound;
  private readonly reply: FastifyReply;

  constructor(
    reply: FastifyReply,
    opts: { acceptsSse: boolean; headers: Record<string, string>; pending: PendingRequests; fallback: Outbound },
  ) {
    this.reply = reply;
    this.writer = new SseWriter(reply.raw, opts.headers);
    this.streamable = opts.acceptsSse;
    this.fallback = opts.fallback;
    this.via = outboundOver((msg) => this.write(msg), opts.pending);
  }

  get canStream(): boolean {
    return this.streamable || this.fallback.canStream;
  }

  get switched(): boolean {
    return this.writer.isStarted;
  }

  notify(method: string, params: Record<string, unknown>): boolean {
    return this.streamable ? this.via.notify(method, params) : this.fallback.notify(method, params);
  }

  request(
    method: string,
    params: Record<string, unknown>,
    opts?: { signal?: AbortSignal; id?: string },
  ): Promise<unknown> {
    return this.streamable ? this.via.request(method, params, opts) : this.fallback.request(method, params, opts);
  }

  /**
   * A held call (SPEC "Events"): this POST turns into `text/event-stream` when the client accepts it and either the call
   * has a progress token or no `GET /mcp` stream is open; otherwise the open GET stream; otherwise nowhere.
   */
  forHold(hasProgress: boolean): Outbound {
    if (this.streamable && (hasProgress || !this.fallback.canStream)) return this.via;
    return this.fallback.canStream ? this.fallback : NO_OUTBOUND;
  }

  /** Runs `cb` when the client drops the connection before the reply ended (the call's stream closed). */
  onClose(cb: () => void): void {
    this.reply.raw.once('close', () => {
      if (!this.reply.raw.writableEnded) cb();
    });
  }

  private write(msg: WireMessage): boolean {
    if (!this.writer.isStarted) this.reply.hijack();
    return this.writer.send(msg, 'message');
  }

  /** Sends the final response (or ends the stream without one, for a cancelled call). */
  finish(response: unknown | null, headers: Record<string, string>): FastifyReply | void {
    if (this.writer.isStarted) {
      if (response) this.writer.send(response, 'message');
      this.writer.end();
      return;
    }
    return this.reply.code(200).headers(headers).type('application/json').send(JSON.stringify(response));
  }
}
