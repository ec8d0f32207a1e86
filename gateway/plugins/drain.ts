import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { endEventStream } from '../mcp/sse.ts';

/**
 * Stopping the gateway never waits on a client. Node's `server.close()` waits for every connection with a request in
 * flight, and an SSE stream (`GET /mcp`, the legacy `/mcp/sse`, a held call's POST) is a request that never ends by
 * itself: a node with one MCP client attached did not stop at all. So, at close: every event stream ends at once (its
 * client reconnects, to another node in a cluster); every other request in flight may finish within `drainMs`, its
 * answer carrying `Connection: close`, and its connection is dropped once answered; after `drainMs` whatever is left
 * is closed.
 */
/** Emitted by the HTTP server when a stop begins: it listens no more, requests in flight drain. */
export const DRAIN_EVENT = 'drain';

export function drainOnClose(app: FastifyInstance, drainMs: number): void {
  const live = new Set<ServerResponse>();
  let draining = false;
  const dropIdle = () => setImmediate(() => app.server.closeIdleConnections());
  app.server.on('request', (_req, res: ServerResponse) => {
    live.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      live.delete(res);
      if (draining) dropIdle();
    });
  });
  app.addHook('preClose', (done) => {
    draining = true;
    app.server.emit(DRAIN_EVENT);
    for (const res of live) {
      if (endEventStream(res)) continue;
      if (!res.headersSent) res.shouldKeepAlive = false;
    }
    const deadline = setTimeout(() => app.server.closeAllConnections(), drainMs);
    deadline.unref();
    app.server.once('close', () => clearTimeout(deadline));
    done();
  });
}
