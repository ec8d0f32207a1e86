import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool } from '../../support/tools.ts';

// A PATH holding the engines but not bwrap while the node runs (this file runs in a process of its own).
const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'engines-no-bwrap-'));
for (const engine of ['ccx', 'ngspice', 'gmsh']) fs.symlinkSync(`/usr/bin/${engine}`, path.join(bin, engine));
afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));
const t = useTestNode({ roles: 'tools,adapter:circuit,adapter:solver', path: bin });

describe('engine adapters on a node without bubblewrap (sandbox on, the default)', () => {
  it('report unhealthy naming the package bubblewrap, and calls fail with TOOL_UNAVAILABLE naming it', async () => {
    for (const id of ['circuit', 'solver']) {
      const health = await call(t.node.broker, adapterActions(id).health, {});
      expect(health, id).toMatchObject({
        status: 'unhealthy',
        tools_available: 0,
        message: expect.stringContaining('bubblewrap'),
      });
    }
    const o = await callTool(t.node.broker, 'circuit.run_simulation', {
      netlist: '* t\nV1 a 0 1\nR1 a 0 1k\n.end\n',
      analysis_type: 'op',
    });
    expect(JSON.stringify(o)).toContain('bubblewrap');
    expect(o.status === 'error' && o.error.type === 'TOOL_UNAVAILABLE').toBe(true);
    const s = await callTool(t.node.broker, 'solver.run_fea', {
      mesh_file: 'm.inp',
      load_case: 'x',
      analysis_type: 'modal',
    });
    expect(JSON.stringify(s)).toContain('bubblewrap');
    expect(s.status === 'error' && s.error.type === 'TOOL_UNAVAILABLE').toBe(true);
  });
});
