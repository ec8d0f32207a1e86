import http from 'node:http';
import net from 'node:net';

/** A response read byte for byte: no decompression, so `Content-Encoding: gzip` bodies stay as sent. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GETs a URL with node:http (fetch would gunzip the body) and returns the raw bytes. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** POSTs a JSON body and returns status and parsed JSON (or text when the body is not JSON). */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** GETs a URL and returns status and parsed JSON. */
export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

/** A parsed JSON body, read loosely by tests. */
export type Json = Record<string, any>;

/** Sends `method` to a URL with an optional JSON body; answers the status and the parsed body (`{}` when empty). */
export async function httpJson(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Json }> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}

/** What a raw socket exchange saw: every byte the server sent before it closed the connection. */
export interface RawExchange {
  text: string;
  /** The status of the first response, or 0 when the server closed without answering. */
  status: number;
  /** The first response's body parsed as JSON (undefined when absent or not JSON). */
  json: any;
}

/**
 * Opens a TCP connection to the server behind `url`, writes `bytes` (then one byte of `drip` every `dripMs` until the
 * server closes, when given) and resolves once the server closes the connection: for requests Node's HTTP parser
 * refuses, and for clients the server's timeouts must drop. No timing is asserted: the test's timeout bounds the wait.
 */
export function rawExchange(
  url: string,
  bytes: string,
  drip?: { byte: string; everyMs: number },
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(bytes);
      if (drip) timer = setInterval(() => socket.writable && socket.write(drip.byte), drip.everyMs);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the server's answer is still a close
    socket.on('close', () => {
      clearInterval(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.split('\r\n\r\n').slice(1).join('\r\n\r\n');
      let json: any;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ text, status, json });
    });
    socket.setNoDelay(true);
  });
}
