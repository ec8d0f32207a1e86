import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a scripted provider answers to one request, family-neutral; each server writes it in its own documented wire
 * format. Faults are on demand: an HTTP status with the provider's error body, a stream cut cleanly before its end
 * (`truncate`), a socket reset mid-stream (`reset`), a chunk that is not JSON (`malformed_chunk`), no answer at all
 * (`hang`), or a first chunk and then silence (`hang_mid_stream`). Malformed tool-call JSON and unknown tool names
 * are plain scripted data (`args` fragments, `name`).
 */
export interface ScriptedReply {
  text?: string[];
  toolCalls?: { id: string; name: string; args: string[] }[];
  /** Omitted: the provider reports no usage. `prompt_tokens` is the whole prompt, cached part included. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  /** The family's own stop word (`stop`/`tool_calls`/`length`, `end_turn`/`tool_use`/`max_tokens`); default by content. */
  stop?: string;
  model?: string;
  fault?:
    | { status: number; type?: string; code?: string; message?: string; retryAfter?: string }
    | 'truncate'
    | 'reset'
    | 'malformed_chunk'
    | 'hang'
    | 'hang_mid_stream';
}

/** One request as the server received it: the wire the SDK produced. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** Writes one reply on an open response; the family server supplies it. */
export type ReplyWriter = (
  req: RecordedRequest,
  reply: ScriptedReply,
  res: http.ServerResponse,
  socket: { destroy(): void },
) => void;

/** How one provider family speaks: its route, its key header, its error body and its reply writer. */
export interface WireFamily {
  route: string;
  /** When set, a request without this key gets the provider's 401. */
  apiKey?: string;
  keyOf(headers: http.IncomingHttpHeaders): string | undefined;
  errorBody(status: number, type: string, message: string): unknown;
  write: ReplyWriter;
}

/** A local HTTP server on a real port that answers from a queue of scripted replies and records every request. */
export class WireServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedReply[] = [];
  private fallback: ScriptedReply | undefined;
  private readonly events = new EventEmitter();
  private readonly server: http.Server;
  private readonly family: WireFamily;
  url = '';

  constructor(family: WireFamily) {
    this.family = family;
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async listen(basePath: string): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${basePath}`;
    return this;
  }

  /** Replies for the next requests, in order. */
  enqueue(...replies: ScriptedReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** The reply when the queue is empty (a benchmark's steady answer); without one an unscripted request gets 500. */
  always(reply: ScriptedReply): this {
    this.fallback = reply;
    return this;
  }

  /** Resolves when the server has received `n` requests in all. */
  async received(n: number): Promise<RecordedRequest> {
    while (this.requests.length < n) await once(this.events, 'request');
    return this.requests[n - 1]!;
  }

  get last(): RecordedRequest | undefined {
    return this.requests.at(-1);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0]!;
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
    this.requests.push(recorded);
    this.events.emit('request');
    if (req.method !== 'POST' || path !== this.family.route) {
      return this.fail(res, 404, 'not_found_error', `no route ${path}`);
    }
    if (this.family.apiKey !== undefined && this.family.keyOf(req.headers) !== this.family.apiKey) {
      return this.fail(res, 401, 'authentication_error', 'invalid api key');
    }
    const reply = this.queue.shift() ?? this.fallback;
    if (!reply) return this.fail(res, 500, 'api_error', 'no scripted reply');
    const fault = reply.fault;
    if (fault === 'hang') return; // the request stays open until the client gives up or the server closes
    if (typeof fault === 'object') {
      if (fault.retryAfter) res.setHeader('retry-after', fault.retryAfter);
      return this.fail(
        res,
        fault.status,
        fault.type ?? 'api_error',
        fault.message ?? `scripted ${fault.status}`,
        fault.code,
      );
    }
    this.family.write(recorded, reply, res, req.socket);
  }

  private fail(res: http.ServerResponse, status: number, type: string, message: string, code?: string): void {
    const body = this.family.errorBody(status, type, message) as { error?: Record<string, unknown> };
    if (code && body.error) body.error.code = code;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

/** Server-sent events: an optional `event:` line, one `data:` line, a blank line. */
export function sse(res: http.ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

export function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}
