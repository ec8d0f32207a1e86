import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, okData, toolError } from '../../../support/tools.ts';
import { hostileWorkspace, writeSlowSheet } from './hostile-schematics.ts';

// Issue 27 finding 5: a file that runs the eda worker out of memory ends the worker, not the node. With the worker's
// heap set to 64 MB (SERVICE_EDA_WORKER_MEMORY_MB), an 8 MB sheet inside every limit (2.7 M tokens) cannot be read:
// the call is a tool error saying so, /health answers, and the next call gets a fresh thread.
const ws = hostileWorkspace();
writeSlowSheet(ws.root, 'big/big.kicad_sch');

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({
    roles: 'gateway,tools,adapter:eda',
    env: { SERVICE_WORKSPACE: ws.root, SERVICE_LOG_LEVEL: 'error', SERVICE_EDA_WORKER_MEMORY_MB: '64' },
  });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

describe('an eda worker out of memory', () => {
  it('is a tool error naming the heap, and the node and the pool go on', async () => {
    const e = await toolError(callTool(t.node.broker, 'eda.export_bom', { schematic_path: 'big/big.kicad_sch' }));
    expect(e).toMatchObject({ type: 'TOOL_EXECUTION_ERROR' });
    expect(e.message).toMatch(/big\/big\.kicad_sch: reading it ran the eda worker out of its 64 MB heap/);
    expect((await fetch(`${t.url}/health`)).status).toBeLessThan(500);
    const next = await okData<{ files: string[] }>(
      callTool(t.node.broker, 'eda.run_erc', { schematic_path: 'hostile/wide/wide-2.kicad_sch' }),
    );
    expect(next.files).toEqual(['hostile/wide/wide-2.kicad_sch']);
  });
});
