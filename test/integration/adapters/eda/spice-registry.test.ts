import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../support/node.ts';
import { callTool, okData } from '../../../support/tools.ts';
import { crossing, demoWorkspace } from './spice-support.ts';

// The same path an agent takes, through the registry: eda.export_netlist (format spice) writes the netlist of
// simulation/sallen_key, circuit.run_simulation runs it on ngspice by netlist_path. R1 = R2 = 1k, C1 = C2 = 100n
// (spice-sallen-key.test.ts derives the figure from the schematic): f0 = 1591.55 Hz, Q = 0.5, f_3dB = 1024.31 Hz.
const F3DB = 1024.31;
const { root, remove } = demoWorkspace(['sallen_key']);
let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:eda,adapter:circuit', env: { SERVICE_WORKSPACE: root } });
});
afterAll(async () => {
  await t.stop();
  remove();
});

describe('sallen_key through the registry: eda then ngspice', () => {
  it('gives its AC response with the -3 dB point within 1% of the design value', async () => {
    const exported = await okData<{ netlist_file: string; skipped: unknown[] }>(
      callTool(t.node.broker, 'eda.export_netlist', {
        schematic_path: 'simulation/sallen_key/sallen_key.kicad_sch',
        format: 'spice',
      }),
    );
    expect(exported).toMatchObject({
      netlist_file: expect.stringMatching(/^calls\/eda\.export_netlist\/[0-9a-f-]{36}\/sallen_key\.cir$/),
      skipped: [],
    });
    const run = await okData<{ waveform: { x: number[]; series: Record<string, { magnitude_db: number[] }> } }>(
      callTool(t.node.broker, 'circuit.run_simulation', {
        netlist_path: exported.netlist_file,
        analysis_type: 'ac',
        params: { variation: 'dec', points: 200, fstart: 1, fstop: 1e6 },
        probes: ['v(lowpass)'],
        max_points: 5000,
      }),
    );
    const measured = crossing(run.waveform.x, run.waveform.series['v(lowpass)']!.magnitude_db);
    expect(Math.abs(measured - F3DB) / F3DB).toBeLessThan(0.01);
  });
});
