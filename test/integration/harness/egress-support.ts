import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { expect } from 'vitest';
import { loadConfig } from '../../../brokers/config.ts';
import { startNode, type StartedNode } from '../../../brokers/launcher/node.ts';
import { readChatStream, type SeenEvent } from '../../support/chat-stream.ts';
import { httpJson } from '../../support/http-raw.ts';

// Set-up shared by the harness egress tests (issue 27, findings 1, 7 and 8): a node whose every log line is kept,
// chat turns over HTTP as a client sends them, and a bare HTTP server that records what reaches it.

/** The roles a chat turn needs. */
export const CHAT_ROLES = 'gateway,harness,chat,tools,projects,adapter:project';

export interface LoggedNode {
  node: StartedNode;
  url: string;
  /** Every log line the node wrote (debug and up), raw. */
  lines: string[];
  http(method: string, p: string, body?: unknown, headers?: Record<string, string>): ReturnType<typeof httpJson>;
  /** Posts one message to a new thread (of `project_id` when given) and reads its stream to agent.done. */
  chatTurn(content: string, project_id?: string): Promise<SeenEvent[]>;
  stop(): Promise<void>;
}

/** Starts a node in this process on a free loopback port with a log sink (debug level) the test reads. */
export async function startLoggedNode(env: Record<string, string>, roles = CHAT_ROLES): Promise<LoggedNode> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const config = loadConfig({ SERVICE_PORT: '0', SERVICE_DATA_DIR: 'memory://', ...env });
  const node = await startNode({ roles, config, log: pino({ level: 'debug' }, sink) });
  const url = `http://127.0.0.1:${node.gateway.address!.port}`;
  const call = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
    httpJson(`${url}${p}`, method, body, headers);
  return {
    node,
    url,
    lines,
    http: call,
    async chatTurn(content, project_id) {
      const thread = await call('POST', '/v1/chat/threads', project_id ? { project_id } : {});
      expect(thread.status, JSON.stringify(thread.json)).toBe(201);
      const posted = await call('POST', `/v1/chat/threads/${thread.json.id}/messages`, { content });
      expect(posted.status, JSON.stringify(posted.json)).toBe(202);
      return readChatStream(`${url}/v1/chat/threads/${thread.json.id}/stream?turn_id=${posted.json.turn_id}`);
    },
    stop: () => node.stop(),
  };
}

/** What reached a bare server: each request's path and Authorization header. */
export interface SeenRequest {
  path: string;
  authorization: string | undefined;
}

/** A bare HTTP server on 127.0.0.1 answering every request with `answer`; `url` ends in `/v1`. */
export async function bareServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    port,
    url: `http://127.0.0.1:${port}/v1`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
