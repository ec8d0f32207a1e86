import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, refusedIssues } from '../../../support/tools.ts';
import { HOSTILE, hostileWorkspace } from './hostile-schematics.ts';

// Issue 27 finding 5: small schematics whose hierarchy or parts expand into unbounded work (90,000 sheet instances
// from 106 KB, 2^16 and 2^30 instances from a chain of two-sheet files, a part with 1 M pins) froze the node for
// minutes or ran it out of memory. Through the registry on a node with the gateway, every schematic-reading tool
// refuses each of them as invalid arguments naming the limit it crossed, and writes nothing outside the calls' scratch
// folders.
const ws = hostileWorkspace();
/** Entries of the workspace outside the calls' own scratch folders (`calls/`, where an export may prepare its own). */
const entries = () =>
  fs.readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((e) => !e.startsWith('calls')).length;
const TOOLS: [string, Record<string, unknown>][] = [
  ['eda.run_erc', {}],
  ['eda.export_netlist', { format: 'json' }],
  ['eda.export_netlist', { format: 'kicad' }],
  ['eda.export_netlist', { format: 'spice' }],
  ['eda.export_bom', {}],
  ['eda.get_pin_mapping', {}],
];

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'gateway,tools,adapter:eda', env: { SERVICE_WORKSPACE: ws.root } });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

describe.each(HOSTILE)('$name', ({ root, limit }) => {
  it.each(TOOLS)('%s %j is refused naming the limit', async (tool, extra) => {
    const before = entries();
    const o = await callTool(t.node.broker, tool, { schematic_path: root, ...extra });
    const message = refusedIssues(o)
      .map((i) => i.message)
      .join('\n');
    expect(message).toMatch(limit);
    expect(message).toContain(root.slice(0, root.lastIndexOf('/')));
    expect(entries()).toBe(before);
  });
});
