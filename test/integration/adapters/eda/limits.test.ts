import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, okData, refusedIssues } from '../../../support/tools.ts';
import { hostileWorkspace } from './hostile-schematics.ts';
import { OVER_LIMIT, writeOverLimit } from './limit-schematics.ts';

// Issue 27 finding 5: every work limit of workers/eda/limits.ts (decision 0040) besides those the issue's hostile
// files cross (hostile-limits.test.ts: sheet instances, pins on one part) refuses a design just over it, through the
// registry, as invalid arguments naming the limit and its value.
const ws = hostileWorkspace();
writeOverLimit(ws.root);

let t: TestNode;
beforeAll(async () => {
  // The token limit takes a 10 MB file read to its end: a loaded machine may need more than the default 10 s.
  t = await startTestNode({
    roles: 'gateway,tools,adapter:eda',
    env: { SERVICE_WORKSPACE: ws.root, SERVICE_REQUEST_TIMEOUT_MS: '60000' },
  });
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

// The read-ahead of sheet file names ran a regular expression over each file on the adapter's thread; 8 M escapes in
// one quoted string overflowed its backtracking stack ("Maximum call stack size exceeded", a tool failure). The scan
// is linear now and the file, a valid empty schematic, is read.
describe('a sheet of one 16 MB quoted string of escapes', () => {
  it('is read (ERC passes on an empty sheet)', async () => {
    const r = await okData<{ passed: boolean; files: string[] }>(
      callTool(t.node.broker, 'eda.run_erc', { schematic_path: 'limits/escapes/escapes.kicad_sch' }),
    );
    expect(r).toMatchObject({ passed: true, files: ['limits/escapes/escapes.kicad_sch'] });
  });
});
