import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthRollupSchema } from '../../../contracts/health.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

describe('health and metrics', () => {
  it('answers /health with the roll-up, healthy when every actor answers', async () => {
    const res = await fetch(`${t.url}/health`);
    expect(res.status).toBe(200);
    const body = HealthRollupSchema.parse(await res.json());
    expect(body.status).toBe('healthy');
    expect(body.auth).toBe('open');
    expect(body.components?.map((c) => [c.name, c.status])).toEqual([
      ['projects', 'healthy'],
      ['twin', 'healthy'],
      ['sessions', 'healthy'],
      ['knowledge', 'healthy'],
      ['memory', 'healthy'],
      ['database', 'healthy'],
    ]);
    expect(body).not.toHaveProperty('unreachable_adapters');
    expect(body).not.toHaveProperty('detail');
  });

  it('serves Prometheus text with action timings and HTTP counts', async () => {
    await fetch(`${t.url}/v1/projects`);
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('service_action_duration_seconds_count{action="projects.list",status="ok"}');
    expect(text).toMatch(/service_http_requests_total\{method="GET",route="\/v1\/projects\/?",status="200"\} \d+/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
