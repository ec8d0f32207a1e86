import type { ServerResponse } from 'node:http';

/** The open event streams by their response, so a stopping gateway can end them (gateway/plugins/drain.ts). */
const openStreams = new WeakMap<ServerResponse, SseWriter>();

/** Ends the event stream written on `res`; false when `res` carries none. */
export function endEventStream(res: ServerResponse): boolean {
  const writer = openStreams.get(res);
  writer?.end();
  return writer !== undefined;
}

/**
 * Writes Server-Sent Events on a raw response: headers on first use, `id:` on every event (so a client may resume),
 * comments as keep-alives. Knows when the client went away.
 */
export class SseWriter {
  private started = false;
  private seq = 0;
  closed = false;
  private readonly res: ServerResponse;
  private readonly headers: Record<string, string>;

  constructor(res: ServerResponse, headers: Record<string, string> = {}) {
    this.res = res;
    this.headers = headers;
    res.once('close', () => {
      this.closed = true;
      openStreams.delete(res);
    });
  }

  get isStarted(): boolean {
    return this.started;
  }

  start(status = 200): void {
    if (this.started) return;
    this.started = true;
    openStreams.set(this.res, this);
    this.res.writeHead(status, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...this.headers,
    });
    this.res.flushHeaders();
  }

  /** Sends one event (its id: the next number, or `id` when the stream numbers its own events); false when the client is gone. */
  send(data: unknown, event?: string, id?: number): boolean {
    if (this.closed) return false;
    this.start();
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    const lines = text
      .split('\n')
      .map((l) => `data: ${l}`)
      .join('\n');
    this.res.write(`id: ${id ?? ++this.seq}\n${event ? `event: ${event}\n` : ''}${lines}\n\n`);
    return true;
  }

  comment(text = 'keep-alive'): void {
    if (this.closed || !this.started) return;
    this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    if (this.closed) return;
    this.start();
    this.closed = true;
    this.res.end();
  }
}
