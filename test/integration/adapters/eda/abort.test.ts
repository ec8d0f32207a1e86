import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { invokeViaRegistry, okData } from '../../../support/tools.ts';
import { hostileWorkspace, writeSlowSheet } from './hostile-schematics.ts';

// Issue 27 finding 5: a call in flight is abortable. A sheet inside every limit can still cost minutes (writeSlowSheet);
// when its call runs out of time the pool's task is aborted and its thread replaced, so the next call is served at
// once instead of queueing behind minutes of work nobody waits for.
const ws = hostileWorkspace();
writeSlowSheet(ws.root, 'slow/slow.kicad_sch');

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({
    roles: 'gateway,tools,adapter:eda',
    env: { SERVICE_WORKSPACE: ws.root, SERVICE_LOG_LEVEL: 'error' },
  });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

describe('an eda call that runs out of time', () => {
  it('gives TOOL_TIMEOUT and leaves the pool free for the next call', async () => {
    const slow = await invokeViaRegistry(
      t.node.broker,
      'eda.run_erc',
      { schematic_path: 'slow/slow.kicad_sch' },
      {},
      { timeout_seconds: 3 },
    );
    expect(slow).toMatchObject({ status: 'error', error: { type: 'TOOL_TIMEOUT' } });
    const next = await okData<{ passed: boolean; files: string[] }>(
      invokeViaRegistry(
        t.node.broker,
        'eda.run_erc',
        { schematic_path: 'hostile/wide/wide-2.kicad_sch' },
        {},
        { timeout_seconds: 20 },
      ),
    );
    expect(next.files).toEqual(['hostile/wide/wide-2.kicad_sch']);
  });
});
