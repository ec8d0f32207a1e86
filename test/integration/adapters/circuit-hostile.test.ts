import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, refusedIssues } from '../../support/tools.ts';

// Findings 1 and 2 through the registry: a hostile netlist is refused as invalid arguments before ngspice runs.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'circuit-hostile-'));
const workspace = path.join(base, 'ws');
const outside = path.join(base, 'outside');
fs.mkdirSync(path.join(workspace, 'nets/deep'), { recursive: true });
fs.mkdirSync(outside);
fs.writeFileSync(path.join(outside, 'secret.lib'), 'Vsecret q 0 1\nRsecret q 0 1k\n');

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:circuit', env: { SERVICE_WORKSPACE: workspace } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(base, { recursive: true, force: true });
});

const run = (args: Record<string, unknown>) => callTool(t.node.broker, 'circuit.run_simulation', args);
const refused = async (args: Record<string, unknown>) => {
  const o = await run(args);
  return refusedIssues(o)
    .map((v) => v.message)
    .join('\n');
};
const pwned = (name: string) => path.join(outside, name);
const touch = (name: string) => `shell touch ${pwned(name)}`;
const body = 'V1 a 0 1\nR1 a 0 1k\n.op\n.end\n';

describe('circuit.run_simulation with a hostile netlist', () => {
  it('refuses *ng_script (finding 1) inline and by netlist_path, and runs nothing', async () => {
    expect(await refused({ netlist: `*ng_script\n${touch('inline')}\n.end\n`, analysis_type: 'op' })).toMatch(/line 1/);
    fs.writeFileSync(path.join(workspace, 'nets/script.cir'), `*NG_SCRIPT\n${touch('by-path')}\n.end\n`);
    expect(await refused({ netlist_path: 'nets/script.cir', analysis_type: 'op' })).toMatch(/line 1/);
    expect(await refused({ netlist: `.control\n${touch('control')}\n.endc\n${body}`, analysis_type: 'op' })).toMatch(
      /line 1/,
    );
    expect(fs.readdirSync(outside)).toEqual(['secret.lib']);
  });

  it('refuses .incl, .includex and .libx outside the workspace (finding 2) without leaking the file', async () => {
    for (const card of [
      '.incl /etc/hostname',
      `.includex ${outside}/secret.lib`,
      `.LIBX "${outside}/secret.lib" tt`,
      '.inc ../outside/secret.lib',
    ]) {
      const message = await refused({ netlist: `* t\n${card}\n${body}`, analysis_type: 'op' });
      expect(message).toMatch(/outside the workspace|leads outside/);
      expect(message).not.toMatch(/vsecret|shorted/i);
    }
  });

  it('checks nested includes of a workspace file: an include outside, a control block, a missing file, a cycle', async () => {
    const nets = (f: string, text: string) => fs.writeFileSync(path.join(workspace, 'nets', f), text);
    nets('outer.inc', `R2 a 0 1k\n.incl ${outside}/secret.lib\n`);
    nets('ctl.inc', `R2 a 0 1k\n.control\n${touch('nested')}\n.endc\n`);
    nets('deep/ngs.inc', '*ng_script\n');
    nets('missing.inc', '.include nowhere.inc\n');
    nets('loop.inc', '.include loop.inc\n');
    const via = (f: string) => refused({ netlist: `* t\n.include nets/${f}\n${body}`, analysis_type: 'op' });
    expect(await via('outer.inc')).toMatch(/outside the workspace/);
    expect(await via('ctl.inc')).toMatch(/nets\/ctl\.inc.*line 2|line 2.*nets\/ctl\.inc/);
    expect(await via('deep/ngs.inc')).toMatch(/ng_script/);
    expect(await via('missing.inc')).toMatch(/nowhere\.inc/);
    expect(await via('loop.inc')).toMatch(/includes itself|cycle/);
    expect(fs.readdirSync(outside)).toEqual(['secret.lib']);
  });

  it('still runs a netlist of allowed statements with a nested workspace include and a .lib section', async () => {
    fs.writeFileSync(
      path.join(workspace, 'nets/parts.lib'),
      '* parts\n.lib typ\n.subckt div top mid\nR1 top mid 1k\nR2 mid 0 {rlow}\n.ends div\n.endl typ\n',
    );
    fs.writeFileSync(path.join(workspace, 'nets/top.inc'), '.lib parts.lib typ\n');
    const text =
      '* divider ; allowed statements\n.param rlow = {sqrt(1e6)}\n.options reltol=1e-4 noacct\n.include nets/top.inc\nV1 in 0 DC 10\nX1 in mid div\n.save all\n.op\n.end\n';
    const r = await okData(run({ netlist: text, analysis_type: 'op' }));
    expect(r.vectors['v(mid)']).toMatchObject({ final: expect.closeTo(5, 9) });
  });
});
