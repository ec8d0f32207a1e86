import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, refusedIssues } from '../../../support/tools.ts';
import { hostileWorkspace } from './hostile-schematics.ts';
import { OVER_LIMIT, writeOverLimit } from './limit-schematics.ts';

// Issue 27 finding 5: every work limit of workers/eda/limits.ts (decision 0040) besides those the issue's hostile
// files cross (hostile-limits.test.ts: sheet instances, pins on one part) refuses a design just over it, through the
// registry, as invalid arguments naming the limit and its value.
const ws = hostileWorkspace();
writeOverLimit(ws.root);

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'gateway,tools,adapter:eda', env: { SERVICE_WORKSPACE: ws.root } });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

describe('a design just over one work limit', () => {
  it.each(OVER_LIMIT)('$limit: eda.run_erc is refused naming it', async ({ root, message }) => {
    const o = await callTool(t.node.broker, 'eda.run_erc', { schematic_path: root });
    const issues = refusedIssues(o);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: 'schematic_path' });
    expect(issues[0]!.message).toMatch(message);
  });
});
