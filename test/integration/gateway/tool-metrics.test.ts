import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'gateway,tools' });
});
afterAll(async () => {
  await t.stop();
});

describe('tool backlog metrics on /metrics', () => {
  it('serves calls in flight per adapter and node, each tool call timed by tool and status, and the waiting gauge', async () => {
    await okData(callTool(t.node.broker, 'tools.search', { query: 'mesh' }));
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const node = t.node.broker.nodeID;
    expect(text).toContain(`service_tool_calls_in_flight{adapter="tools",node="${node}"} 0`);
    expect(text).toMatch(/service_tool_call_duration_seconds_count\{tool="tools\.search",status="success"\} 1\n/);
    expect(text).toContain('# TYPE service_tool_calls_waiting gauge');
    expect(text).toContain('# TYPE service_tool_calls_refused_total counter');
  });
});
