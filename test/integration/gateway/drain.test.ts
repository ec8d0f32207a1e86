import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { DRAIN_EVENT } from '../../../gateway/plugins/drain.ts';

// A stop never waits on a client (gateway/plugins/drain.ts). Nothing here is timed: each case waits for the stop to
// resolve and for the client's side to see its end, bounded by the test timeout. Before the drain a node with one open
// `GET /mcp` stream never stopped, and one with a half-sent upload waited out the 300 s request deadline.
const ROLES = 'gateway,projects';

async function mcpSession(url: string): Promise<string> {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'drain', version: '1' } },
    }),
  });
  await res.text();
  return res.headers.get('mcp-session-id') ?? '';
}

/** Reads an event stream to its end; resolves with everything it carried. */
async function readToEnd(res: Response): Promise<string> {
  return await res.text();
}

/** A raw connection that has sent a request's headers and part of its body; the server has the request in flight. */
async function halfSentUpload(
  t: TestNode,
): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  const { port } = new URL(t.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  // Node answers 100 Continue once it has parsed the headers: from then on the request is in flight.
  const continued = new Promise<void>((resolve) =>
    socket.on('data', (d: string) => {
      text += d;
      if (text.includes('100 Continue')) resolve();
    }),
  );
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await continued;
  socket.write(body.slice(0, 5));
  return { socket, received: () => text, closed };
}

describe('stopping the gateway', () => {
  it('ends an open GET /mcp stream and stops', async () => {
    const t = await startTestNode({ roles: ROLES });
    const sid = await mcpSession(t.url);
    const stream = await fetch(`${t.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid } });
    expect(stream.status).toBe(200);
    const ended = readToEnd(stream);
    await t.stop();
    expect(await ended).toContain(': stream open');
  });

  it('ends an open legacy /mcp/sse stream and stops', async () => {
    const t = await startTestNode({ roles: ROLES });
    const stream = await fetch(`${t.url}/mcp/sse`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const ended = readToEnd(stream);
    await t.stop();
    expect(await ended).toContain('event: endpoint');
  });

  it('closes a request still in flight when the drain time is over', async () => {
    const t = await startTestNode({ roles: ROLES, env: { SERVICE_HTTP_DRAIN_MS: '0' } });
    const upload = await halfSentUpload(t);
    await t.stop();
    await upload.closed;
    expect(upload.received()).not.toContain('HTTP/1.1 200');
  });

  it('lets a request in flight finish within the drain time, then closes its connection', async () => {
    const t = await startTestNode({ roles: ROLES, env: { SERVICE_HTTP_DRAIN_MS: '600000' } });
    const upload = await halfSentUpload(t);
    const draining = once(t.node.gateway.server!, DRAIN_EVENT);
    const stopped = t.stop();
    await draining;
    upload.socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }).slice(5));
    await upload.closed;
    await stopped;
    const answer = upload.received().split('\r\n\r\n').slice(1).join('\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 \d{3}/);
    expect(answer.toLowerCase()).toContain('connection: close');
  });
});
