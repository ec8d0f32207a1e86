import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, okData, refusedIssues } from '../../../support/tools.ts';
import { HOSTILE, hostileWorkspace } from './hostile-schematics.ts';

// Issue 27 finding 5: while eda.run_erc read 90,000 sheet instances on the adapter's event loop, GET /health did not
// answer for 95 s. The node's own HTTP port is probed back to back while each hostile design goes through the
// registry: every probe answers under 100 ms (a free event loop answers in a few ms; a blocked one in seconds), and
// each call ends with its limit error.
const ws = hostileWorkspace();
const PROBE_BOUND_MS = 100;

let t: TestNode;
beforeAll(async () => {
  // Level error: each roll-up of this node warns about the actors it does not host, hundreds of lines a second.
  t = await startTestNode({
    roles: 'gateway,tools,adapter:eda',
    env: { SERVICE_WORKSPACE: ws.root, SERVICE_LOG_LEVEL: 'error' },
  });
  // Once per node, not per file: the first roll-up starts the adapters' cached probes, the first tool call compiles the
  // registry's validators and starts the pool's thread. A small valid sheet does both before anything is measured.
  await fetch(`${t.url}/health`);
  await okData(callTool(t.node.broker, 'eda.run_erc', { schematic_path: 'hostile/wide/wide-2.kicad_sch' }));
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

/** Probes GET /health back to back until `done` settles; the latency of each probe (ms). */
async function probeWhile(done: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void done.finally(() => (settled = true)).catch(() => undefined);
  const latencies: number[] = [];
  do {
    const t0 = performance.now();
    const res = await fetch(`${t.url}/health`);
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    expect(res.status).toBeLessThan(600);
  } while (!settled);
  return latencies;
}

describe('GET /health while the eda adapter reads hostile schematics', () => {
  it.each(HOSTILE)('$name: every probe under 100 ms, the calls refused naming the limit', async ({ root, limit }) => {
    const calls = Promise.all(
      ['eda.run_erc', 'eda.get_pin_mapping', 'eda.export_netlist'].map((tool) =>
        callTool(t.node.broker, tool, { schematic_path: root }),
      ),
    );
    const latencies = await probeWhile(calls);
    for (const o of await calls)
      expect(
        refusedIssues(o)
          .map((i) => i.message)
          .join('\n'),
      ).toMatch(limit);
    expect(latencies.length).toBeGreaterThan(0);
    const slow = latencies.map(Math.round).filter((ms) => ms >= PROBE_BOUND_MS);
    expect(slow, `${slow.length} of ${latencies.length} probes took ${PROBE_BOUND_MS} ms or more`).toEqual([]);
  });
});
