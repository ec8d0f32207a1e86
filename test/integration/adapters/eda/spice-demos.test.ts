import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spiceNetlistFile } from '../../../../actors/adapters/eda/spice.tool.ts';
import { demoWorkspace, DEMOS, simulate } from './spice-support.ts';

const NAMES = ['rectifier', 'laser_driver', 'pspice', 'v_i_sources'];
const { root, ws, remove } = demoWorkspace(NAMES);
afterAll(remove);

const sch = (name: string) => `simulation/${name}/${name}.kicad_sch`;
/** An include as the export writes it: the library's path from the netlist's own folder (the call's scratch folder). */
const include = (spicePath: string, lib: string) =>
  `.include "${path.posix.relative(path.posix.dirname(spicePath), lib)}"`;
const vec = (r: { vectors: Record<string, unknown> }, name: string) =>
  r.vectors[name] as { final: number; min: number; max: number };

describe('the other KiCad simulation demos: exported by eda, run by circuit.run_simulation (ngspice)', () => {
  it('rectifier: the diode model library, the .tran card; the half-wave output peaks a diode drop under 1.5 V', async () => {
    const r = await spiceNetlistFile(ws, sch('rectifier'));
    // The sheet's "*.ac dec 10 1 1Meg" text starts with '*': a comment, not a directive (KiCad 6 reads it so too).
    expect(r).toMatchObject({
      components: 5,
      directives: [include(r.spice_path, 'simulation/rectifier/diode.mod'), '.tran 1u 10m'],
      skipped: [],
    });
    const text = fs.readFileSync(path.join(root, r.spice_path), 'utf8');
    expect(text).toContain('D1 Net-_D1-Pad2_ rect_out 1N4148'); // Spice_Node_Sequence "2 1": anode, cathode
    const run = await simulate(ws, { netlist_path: r.spice_path, analysis_type: 'transient', probes: ['rect_out'] });
    expect(run.card).toBe('.tran 1u 10m');
    const out = vec(run, 'v(rect_out)');
    expect(out.max).toBeGreaterThan(0.7);
    expect(out.max).toBeLessThan(1.2);
    expect(out.min).toBeGreaterThan(-0.01);
  });

  it('laser_driver: three libraries (diode, transistor, op-amp subcircuit); the laser node follows the pulse', async () => {
    const r = await spiceNetlistFile(ws, sch('laser_driver'));
    expect(r).toMatchObject({ components: 13, skipped: [] });
    expect(r.directives).toEqual([
      ...['laser.lib', 'fzt1049a.lib', 'ad8009.lib'].map((lib) =>
        include(r.spice_path, `simulation/laser_driver/${lib}`),
      ),
      '.tran 10p 150n',
    ]);
    const text = fs.readFileSync(path.join(root, r.spice_path), 'utf8');
    expect(text).toContain('D1 out 0 laser');
    expect(text).toContain('V1 in 0 pulse(0 3 100n 1n 1n 20n 100n )');
    const run = await simulate(ws, {
      netlist_path: r.spice_path,
      analysis_type: 'transient',
      probes: ['in', 'out'],
    });
    expect(run.converged).toBe(true);
    expect(vec(run, 'v(in)').max).toBeCloseTo(3, 3);
    expect(vec(run, 'v(out)').max).toBeGreaterThan(vec(run, 'v(out)').min + 0.5);
  });

  it('pspice: values in PSpice style (22K, 1UF, 100mH), models from a multi-line sheet text; an amplifier in AC', async () => {
    const r = await spiceNetlistFile(ws, sch('pspice'));
    expect(r).toMatchObject({
      components: 23,
      directives: ['.model Q2N2222 npn (bf=200)', '.ac dec 100 10 1Meg'],
      skipped: [],
    });
    const lines = fs.readFileSync(path.join(root, r.spice_path), 'utf8').split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['R3 +12V VIN 22k', 'C1 VIN Net-_C1-Pad2_ 1u', 'R8 Net-_Q1-Pad3_ 0 2.2k']),
    );
    expect(lines).toEqual(expect.arrayContaining(['L1 Net-_C4-Pad2_ VOUT 100m', 'V2 Net-_C1-Pad2_ 0 dc 0 ac 1']));
    // The net the schematic names "0" is ground: no part sits between a node "0" and SPICE's ground.
    expect(lines.some((l) => / 0_2\b/.test(l))).toBe(false);
    const run = await simulate(ws, { netlist_path: r.spice_path, analysis_type: 'ac', probes: ['vout'] });
    expect(run.card).toBe('.ac dec 100 10 1Meg');
    expect((run.vectors['v(vout)'] as { magnitude_db: { max: number } }).magnitude_db.max).toBeGreaterThan(0);
  });

  it('v_i_sources: every independent source form (am, dc, exp, pulse, pwl, sffm, sin, trnoise, trrandom) runs', async () => {
    const r = await spiceNetlistFile(ws, sch('v_i_sources'));
    expect(r).toMatchObject({ components: 36, directives: ['.tran 1n 300n'], skipped: [] });
    const run = await simulate(ws, {
      netlist_path: r.spice_path,
      analysis_type: 'transient',
      probes: ['vdc', 'idc', 'vpulse', 'vpwl'],
    });
    expect(vec(run, 'v(vdc)').final).toBeCloseTo(2.345, 6);
    // I2 (dc 2.345 A) drives its current from node idc through itself to ground: idc sits at -2.345 A x 10k.
    expect(vec(run, 'v(idc)').final).toBeCloseTo(-23450, 2);
    expect(vec(run, 'v(vpulse)')).toMatchObject({ min: -1, max: 1 });
    expect(vec(run, 'v(vpwl)').min).toBeCloseTo(-7, 6);
  });
});

describe('what the export leaves out, with the reason', () => {
  it('skips a library outside the workspace, a .control block, an unknown card and a disabled part', async () => {
    const src = fs.readFileSync(path.join(DEMOS, 'rectifier/rectifier.kicad_sch'), 'utf8');
    const edited = src
      .replace('"Spice_Lib_File" "diode.mod"', `"Spice_Lib_File" "${DEMOS}/rectifier/diode.mod"`)
      .replace('(text ".tran 1u 10m\\n"', '(text ".tran 1u 10m\\n.control\\nrun\\nshell rm -rf x\\n.endc\\n.hack 1\\n"')
      .replace(
        /(\(property "Reference" "R2")/,
        '(property "Spice_Netlist_Enabled" "N" (id 20) (at 0 0 0) (effects (font (size 1.27 1.27)) hide))\n    $1',
      );
    expect(edited).not.toBe(src);
    fs.writeFileSync(path.join(root, 'simulation/rectifier/edited.kicad_sch'), edited);
    const r = await spiceNetlistFile(ws, 'simulation/rectifier/edited.kicad_sch');
    expect(r.directives).toEqual(['.tran 1u 10m']);
    expect(r.components).toBe(4);
    const reasons = Object.fromEntries(r.skipped.map((s) => [s.item, s.reason]));
    expect(Object.keys(reasons)).toEqual([
      'R2',
      '.control',
      'run',
      'shell rm -rf x',
      '.endc',
      '.hack 1',
      `Spice_Lib_File ${DEMOS}/rectifier/diode.mod`,
    ]);
    expect(reasons.R2).toMatch(/Spice_Netlist_Enabled is N/);
    expect(reasons.run).toMatch(/\.control block/);
    expect(reasons['.hack 1']).toMatch(/\.hack is not an allowed statement/);
    expect(reasons[`Spice_Lib_File ${DEMOS}/rectifier/diode.mod`]).toMatch(/outside the workspace/);
    const text = fs.readFileSync(path.join(root, r.spice_path), 'utf8');
    expect(text).not.toMatch(/\.include|\.control|shell|\.hack|^R2 /m);
  });
});
