import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, refusedIssues, toolError } from '../../support/tools.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const SPICE = `${SIM_FIXTURES}/spice`;
const netlist = (f: string) => fs.readFileSync(`${SPICE}/${f}`, 'utf8');
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'circuit-ws-'));

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:circuit', env: { SERVICE_WORKSPACE: workspace } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
});

const run = (args: Record<string, unknown>) => callTool(t.node.broker, 'circuit.run_simulation', args);

describe('circuit.run_simulation on ngspice', () => {
  it('gives the RC low-pass -3.01 dB and -45 deg at 1 kHz, running only the AC analysis', async () => {
    const r = await okData(run({ netlist: netlist('rc_lowpass.cir'), analysis_type: 'ac', probes: ['v(out)'] }));
    expect(r).toMatchObject({ converged: true, plot: 'AC Analysis', card: '.ac dec 10 10 100k', points: 41 });
    expect(Object.keys(r.vectors)).toEqual(['v(out)']);
    const k = r.waveform.x.findIndex((f: number) => Math.abs(f - 1000) < 1e-3);
    expect(Math.abs(r.waveform.series['v(out)'].magnitude_db[k] - -3.01)).toBeLessThan(0.05);
    expect(Math.abs(r.waveform.series['v(out)'].phase_deg[k] - -45)).toBeLessThan(0.5);
    expect(r.vectors['v(out)'].magnitude_db.final).toBeCloseTo(-40.0, 1);
    const kept = fs.readFileSync(path.join(workspace, r.netlist_file), 'utf8');
    expect(kept).toContain('* [not run] .tran 5u 1m');
  });

  it('runs a transient from params, decimated to max_points with the ends kept, and a DC sweep keyed by its scale', async () => {
    const tr = await okData(
      run({
        netlist: netlist('rc_lowpass.cir'),
        analysis_type: 'transient',
        params: { tstep: '5u', tstop: '2m' },
        probes: ['out'],
        max_points: 40,
      }),
    );
    expect(tr).toMatchObject({ card: '.tran 5u 2m', waveform: { scale: 'time', points: 40, decimated: true } });
    expect(tr.waveform.x.at(-1)).toBeCloseTo(2e-3, 9);
    expect(tr.vectors['v(out)'].final).toBeGreaterThan(0.99);
    const dc = await okData(
      run({
        netlist: netlist('rc_lowpass.cir'),
        analysis_type: 'dc',
        params: { source: 'V1', start: 0, stop: 2, step: 0.5 },
      }),
    );
    expect(dc.waveform).toMatchObject({ scale: 'v(v-sweep)', x: [0, 0.5, 1, 1.5, 2] });
    expect(dc.vectors['v(out)']).toMatchObject({ final: 2, min: 0, max: 2 });
  });

  it('reads netlist_path from the workspace and runs op without a card', async () => {
    fs.mkdirSync(path.join(workspace, 'nets'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'nets/models.inc'), 'R2 mid 0 1k\n');
    fs.writeFileSync(
      path.join(workspace, 'nets/div.cir'),
      '* divider\nV1 in 0 DC 10\nR1 in mid 1k\n.include models.inc\n.end\n',
    );
    const r = await okData(run({ netlist_path: 'nets/div.cir', analysis_type: 'op' }));
    expect(r.vectors['v(mid)']).toMatchObject({ final: expect.closeTo(5, 9) });
    expect(r.waveform).toBeNull();
  });

  it('fails the non-converging netlist with the simulator\'s "Timestep too small" and its log', async () => {
    const e = await toolError(run({ netlist: netlist('rc_nonconv.cir'), analysis_type: 'transient' }));
    expect(e.type).toBe('TOOL_EXECUTION_ERROR');
    expect(e.message).toContain('Timestep too small');
    expect(e.details).toMatchObject({
      converged: false,
      exit_code: 1,
      // ngspice 39 (bookworm) ends its log "Transient solution failed -"; ngspice 46 (bookworm-backports, which KiCad 9's
      // libngspice0 brings) stops after the failed stepping: the simulator's own warnings either way.
      log: expect.arrayContaining([expect.stringMatching(/stepping failed|Transient solution failed/)]),
    });
  });

  it('fails the bad-syntax netlist with the offending line and "circuit not parsed"', async () => {
    const e = await toolError(run({ netlist: netlist('bad_syntax.cir'), analysis_type: 'op' }));
    expect(e.message).toContain('could not find a valid modelname');
    expect(e.message).toContain('Error: circuit not parsed.');
    expect((e.details as { log: string[] }).log).toContain('d1 a 0 nosuchmodel');
  });

  it('refuses a .control block, both netlist sources, an include outside the workspace, an unknown probe and foreign params', async () => {
    const refused = async (args: Record<string, unknown>) => {
      const o = await run(args);
      return refusedIssues(o)
        .map((v) => v.message)
        .join('\n');
    };
    expect(
      await refused({ netlist: '* t\nV1 a 0 1\nR1 a 0 1k\n.control\nop\n.endc\n.end\n', analysis_type: 'op' }),
    ).toContain('.control block (line 4)');
    expect(await refused({ netlist: '* t\n', netlist_path: 'x.cir', analysis_type: 'op' })).toBe(
      'give exactly one of netlist and netlist_path',
    );
    expect(
      await refused({ netlist: '* t\n.include /etc/hostname\nV1 a 0 1\nR1 a 0 1k\n', analysis_type: 'op' }),
    ).toContain('outside the workspace');
    expect(
      await refused({ netlist: netlist('rc_lowpass.cir'), analysis_type: 'op', probes: ['v(nowhere)'] }),
    ).toContain('available: v(in), v(out), i(v1)');
    expect(
      await refused({ netlist: netlist('rc_lowpass.cir'), analysis_type: 'ac', params: { tstop: '1m' } }),
    ).toContain('do not apply to a ac analysis');
    expect(await refused({ netlist_path: '../../etc/passwd', analysis_type: 'op' })).toContain('outside the workspace');
  });

  it('times out a run that does not finish and kills ngspice', async () => {
    const long = '* long\nV1 a 0 SIN(0 1 1G)\nR1 a b 1k\nC1 b 0 1p\n.tran 1p 1\n.end\n';
    const o = await call(t.node.broker, ToolsActions.call, {
      name: 'circuit.run_simulation',
      arguments: { netlist: long, analysis_type: 'transient' },
      timeout_seconds: 1,
      call_id: `t-${crypto.randomUUID()}`,
      caller: { kind: 'stdio', transport: 'stdio' },
    });
    expect(o).toMatchObject({ status: 'error', error: { type: 'TOOL_TIMEOUT' } });
    const scratch = path.join(workspace, 'calls');
    const ngspiceHere = () =>
      fs.readdirSync('/proc').filter((pid) => {
        try {
          return (
            /^\d+$/.test(pid) &&
            fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(scratch) &&
            fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ngspice')
          );
        } catch {
          return false;
        }
      }).length;
    await expect.poll(ngspiceHere, { timeout: 5000 }).toBe(0);
  });
});
