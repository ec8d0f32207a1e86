import http from 'node:http';
import type { Socket } from 'node:net';
import type { ServiceConfig } from '../../brokers/config.ts';
import { ErrorCatalogue, type ErrorBody, type ErrorCode } from '../../contracts/index.ts';

type Limits = Pick<
  ServiceConfig,
  | 'SERVICE_HTTP_HEADERS_TIMEOUT_MS'
  | 'SERVICE_HTTP_REQUEST_TIMEOUT_MS'
  | 'SERVICE_HTTP_KEEPALIVE_TIMEOUT_MS'
  | 'SERVICE_HTTP_IDLE_TIMEOUT_MS'
>;

/**
 * The HTTP server's timeouts (issue finding 6: slow clients were never dropped). Node checks the header and request
 * deadlines every `connectionsCheckingInterval`, so it is derived from them (a quarter of the shorter, at most 30 s);
 * Node refuses a header deadline longer than the request deadline, so the header one is capped by it.
 */
export function httpServerOptions(c: Limits): {
  http: http.ServerOptions;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
} {
  const requestTimeout = c.SERVICE_HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(c.SERVICE_HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  const connectionsCheckingInterval = Math.max(10, Math.min(30_000, Math.floor(headersTimeout / 4)));
  return {
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval },
    requestTimeout,
    keepAliveTimeout: c.SERVICE_HTTP_KEEPALIVE_TIMEOUT_MS,
    connectionTimeout: c.SERVICE_HTTP_IDLE_TIMEOUT_MS,
  };
}

/**
 * The idle timeout drops a connection that sent nothing for `connectionTimeout` while no request of it is being
 * answered. A request in flight keeps its connection (a held tool call or a solve may answer minutes later, and SSE
 * streams are long-lived); its slow *upload* is bounded by the request deadline instead. Listening to the server's
 * `timeout` event replaces Node's default (destroy on every socket timeout).
 */
export function dropIdleConnections(server: http.Server): void {
  const inFlight = new WeakMap<Socket, number>();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
  });
  server.on('timeout', (socket: Socket) => {
    if (!inFlight.get(socket)) socket.destroy();
  });
}

const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'the request was not received in time'],
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'the request headers are too large'],
};

/**
 * Answers an error of Node's HTTP parser (the server's `clientError`: a Transfer-Encoding and Content-Length
 * conflict, a broken request line, a header or request deadline passed) with the gateway's error body, then closes.
 */
export function answerClientError(err: Error & { code?: string; reason?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [
    'BAD_REQUEST',
    `the request cannot be parsed: ${err.reason ?? err.message}`,
  ];
  const status = ErrorCatalogue[code].http;
  const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
  if (!socket.writable) return void socket.destroy();
  const head = `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
}
