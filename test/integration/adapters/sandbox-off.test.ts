import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

// SERVICE_ENGINE_SANDBOX=off on a PATH holding the engines but not bwrap (this file runs in a process of its own).
const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'engines-no-bwrap-'));
for (const engine of ['ccx', 'ngspice', 'gmsh']) fs.symlinkSync(`/usr/bin/${engine}`, path.join(bin, engine));
afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));
const t = useTestNode({
  roles: 'tools,adapter:circuit,adapter:solver',
  path: bin,
  env: { SERVICE_ENGINE_SANDBOX: 'off' },
});

describe('SERVICE_ENGINE_SANDBOX=off', () => {
  it('needs no bwrap: the engine adapters are healthy and ngspice runs', async () => {
    for (const id of ['circuit', 'solver']) {
      const health = await call(t.node.broker, adapterActions(id).health, {});
      expect(health, id).toMatchObject({ status: 'healthy' });
    }
    const r = await okData(
      callTool(t.node.broker, 'circuit.run_simulation', {
        netlist: '* t\nV1 a 0 2\nR1 a b 1k\nR2 b 0 1k\n.end\n',
        analysis_type: 'op',
      }),
    );
    expect(r.vectors['v(b)']).toMatchObject({ final: expect.closeTo(1, 9) });
  });

  it('is refused when neither bwrap nor off', async () => {
    const { loadConfig } = await import('../../../brokers/config.ts');
    expect(() => loadConfig({ SERVICE_ENGINE_SANDBOX: 'none' })).toThrow(/SERVICE_ENGINE_SANDBOX/);
  });
});
