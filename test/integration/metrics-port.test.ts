import { describe, expect, it } from 'vitest';
import { useTestNode } from '../support/node.ts';

// Every node serves its own registry on SERVICE_METRICS_PORT (brokers/metrics-server.ts): an adapter node without the
// gateway role is scraped for its calls in flight, which the gateway's /metrics (its own process) never shows.
const t = useTestNode({ roles: 'tools,adapter:circuit', env: { SERVICE_METRICS_PORT: '0' } });

describe('the node metrics port', () => {
  it("serves the node's registry, with the adapter's backlog gauges, at GET /metrics only", async () => {
    const port = t.node.metricsPort!;
    expect(port).toBeGreaterThan(0);
    expect(t.url).toBe('');
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# TYPE service_tool_calls_in_flight gauge$/m);
    expect(text).toMatch(/^# TYPE process_resident_memory_bytes gauge$/m);
    for (const [method, path] of [
      ['POST', '/metrics'],
      ['GET', '/'],
      ['GET', '/metrics/../health'],
    ] as const)
      expect((await fetch(`http://127.0.0.1:${port}${path}`, { method })).status, `${method} ${path}`).toBe(404);
  });
});
