import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type client from 'prom-client';

/**
 * The process's own Prometheus registry on a port of its own (`SERVICE_METRICS_PORT`): every node of a cluster
 * serves what it counts (an adapter its calls in flight, the tools actor the calls waiting, the harness its fallbacks),
 * where the gateway's `/metrics` serves only the gateway process. `GET /metrics` only; anything else is 404.
 */
export async function serveMetrics(
  registry: client.Registry,
  opts: { host: string; port: number },
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`${(err as Error).message}\n`),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
