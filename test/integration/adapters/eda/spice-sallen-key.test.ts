import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectivity } from '../../../../workers/eda/connectivity.ts';
import { loadSchematic } from '../../../../workers/eda/schematic.ts';
import { spiceNetlistFile } from '../../../../actors/adapters/eda/spice.tool.ts';
import { crossing, demoWorkspace, simulate, spiceNumber } from './spice-support.ts';

const SCH = 'simulation/sallen_key/sallen_key.kicad_sch';
const { root, ws, remove } = demoWorkspace(['sallen_key']);
afterAll(remove);

/**
 * The unity-gain Sallen-Key low-pass: R1 from the input to node A, R2 from A to the op-amp's + input B, the feedback
 * capacitor Cf from A to the output, the ground capacitor Cg from B to ground. H(s) = 1 / (1 + s·Cg·(R1+R2) +
 * s²·R1·R2·Cf·Cg), so f0 = 1/(2π√(R1R2CfCg)), Q = √(R1R2CfCg)/(Cg(R1+R2)), and |H|² = 1/2 at
 * f_3dB = f0·√(a + √(a²+1)) with a = 1 - 1/(2Q²). In this demo C1 is Cf (A to the output `/lowpass`) and C2 is Cg.
 */
async function designFigures() {
  const sch = await loadSchematic(SCH, (f) => fs.promises.readFile(path.join(root, f), 'utf8'));
  const conn = connectivity(sch);
  const value = (ref: string) =>
    spiceNumber(sch.sheets.flatMap((s) => s.symbols).find((s) => s.reference === ref)!.value);
  const netOf = (ref: string, pin: string) =>
    conn.nets.find((n) => n.nodes.some((x) => x.reference === ref && x.pin === pin))!.name;
  // Which capacitor is which, from the connectivity rather than assumed: Cg has a pin on ground.
  const grounded = (ref: string) => netOf(ref, '1') === 'GND' || netOf(ref, '2') === 'GND';
  const [cg, cf] = grounded('C2') ? ['C2', 'C1'] : ['C1', 'C2'];
  const R1 = value('R1');
  const R2 = value('R2');
  const Cf = value(cf);
  const Cg = value(cg);
  const f0 = 1 / (2 * Math.PI * Math.sqrt(R1 * R2 * Cf * Cg));
  const Q = Math.sqrt(R1 * R2 * Cf * Cg) / (Cg * (R1 + R2));
  const a = 1 - 1 / (2 * Q * Q);
  return { cf, cg, R1, R2, Cf, Cg, f0, Q, f3dB: f0 * Math.sqrt(a + Math.sqrt(a * a + 1)) };
}

describe('simulation/sallen_key: eda SPICE export, then circuit.run_simulation (ngspice)', () => {
  it('exports the parts, the op-amp library (inside the workspace) and the sheet .ac directive', async () => {
    const r = await spiceNetlistFile(ws, SCH);
    expect(r).toEqual({
      // Into the call's own scratch folder (docs/decisions/0030-export-writes.md), the library named from there.
      spice_path: expect.stringMatching(/^calls\/eda\.export_netlist\/[0-9a-f-]{36}\/sallen_key\.cir$/),
      components: 8,
      directives: ['.include "../../../simulation/sallen_key/ad8051.lib"', '.ac dec 10 1 1Meg'],
      skipped: [],
    });
    const lines = fs.readFileSync(path.join(root, r.spice_path), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^\.title /);
    expect(lines.at(-1)).toBe('.end');
    expect(lines).toEqual(
      expect.arrayContaining([
        'C1 lowpass Net-_C1-Pad2_ 100n',
        'C2 Net-_C2-Pad1_ 0 100n',
        'R1 Net-_C1-Pad2_ Net-_R1-Pad2_ 1k',
        'R2 Net-_C2-Pad1_ Net-_C1-Pad2_ 1k',
        // The op-amp symbol's pins 1..5 (+, -, V+, V-, out) in the order of the AD8051 subcircuit's nodes.
        'XU1 Net-_C2-Pad1_ lowpass VDD VSS lowpass AD8051',
        'V1 Net-_R1-Pad2_ 0 AC 1',
        'V2 VDD 0 DC 10',
        'V3 0 VSS DC 10',
      ]),
    );
  });

  it('gives the -3 dB frequency within 1% of the value from the schematic component values', async () => {
    const { spice_path } = await spiceNetlistFile(ws, SCH, { outputPath: 'out/sallen_key.cir' });
    // A netlist in another folder names the library relative to itself.
    expect(fs.readFileSync(path.join(root, spice_path), 'utf8')).toContain(
      '.include "../simulation/sallen_key/ad8051.lib"',
    );
    const design = await designFigures();
    expect(design).toMatchObject({ cf: 'C1', cg: 'C2', R1: 1e3, R2: 1e3 });
    expect(design.Q).toBeCloseTo(0.5, 9);
    const r = await simulate(ws, {
      netlist_path: spice_path,
      analysis_type: 'ac',
      params: { variation: 'dec', points: 200, fstart: 1, fstop: 1e6 },
      probes: ['v(lowpass)'],
      max_points: 5000,
    });
    expect(r).toMatchObject({ converged: true, card: '.ac dec 200 1 1000000', points: 1201 });
    const wave = r.waveform!;
    const series = wave.series['v(lowpass)'] as { magnitude_db: number[] };
    expect(Math.abs(series.magnitude_db[0]!)).toBeLessThan(0.01); // unity gain in the pass band
    const measured = crossing(wave.x, series.magnitude_db);
    console.log(
      `sallen_key: f0 ${design.f0.toFixed(2)} Hz, Q ${design.Q.toFixed(4)}, ` +
        `-3 dB computed ${design.f3dB.toFixed(2)} Hz, measured ${measured.toFixed(2)} Hz ` +
        `(${((100 * (measured - design.f3dB)) / design.f3dB).toFixed(3)}%)`,
    );
    expect(Math.abs(measured - design.f3dB) / design.f3dB).toBeLessThan(0.01);
  });
});
