import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRawFile, RawFileError } from '../../../../actors/adapters/circuit/raw-file.ts';
import { selectVectors, summarise } from '../../../../actors/adapters/circuit/results.ts';
import { SIM_FIXTURES } from '../../../support/sim-fixtures.ts';

const SPICE = `${SIM_FIXTURES}/spice`;
const read = (f: string) => fs.readFileSync(`${SPICE}/${f}`, 'utf8');
const plotsOf = () => parseRawFile(read('rc_lowpass.ascii.raw'));
const byName = (name: string) => plotsOf().find((p) => p.plotname === name)!;

describe('ASCII raw file parser on the rc_lowpass fixture', () => {
  it('reads the four plots in ngspice order with their variables and point counts', () => {
    const plots = plotsOf();
    expect(plots.map((p) => [p.plotname, p.points, p.variables.length, p.complex])).toEqual([
      ['AC Analysis', 41, 4, true],
      ['DC transfer characteristic', 11, 4, false],
      ['Operating Point', 1, 3, false],
      ['Transient Analysis', 219, 4, false],
    ]);
    expect(plots[0].variables.map((v) => v.name)).toEqual(['frequency', 'v(in)', 'v(out)', 'i(v1)']);
    expect(plots.every((p) => p.points === p.declaredPoints)).toBe(true);
  });

  it('gives AC v(out) at 1 kHz as -3.010 dB and -45.00 deg, and at 100 kHz -40.00 dB, -89.43 deg', () => {
    const ac = byName('AC Analysis');
    const { vectors, waveform } = summarise(ac, selectVectors(ac, ['v(out)']).picked, 1000);
    const k = waveform!.x.findIndex((f) => Math.abs(f - 1000) < 1e-6);
    expect(k).toBe(20);
    const s = waveform!.series['v(out)'] as { magnitude_db: number[]; phase_deg: number[] };
    expect(s.magnitude_db[k]).toBeCloseTo(-3.01, 2);
    expect(s.phase_deg[k]).toBeCloseTo(-45.0, 1);
    expect(vectors['v(out)']).toMatchObject({
      magnitude_db: { final: expect.closeTo(-40.0, 2) },
      phase_deg: { final: expect.closeTo(-89.43, 2) },
    });
    expect(waveform).toMatchObject({ scale: 'frequency', points: 41, decimated: false });
    expect(waveform!.x[0]).toBe(10); // the real part; the imaginary part of the AC scale is garbage
  });

  it('summarises DC (scale v(v-sweep)), OP (no scale, no waveform) and TRAN (v(out) at tau, i(v1) min)', () => {
    const dc = byName('DC transfer characteristic');
    const d = summarise(dc, selectVectors(dc, undefined).picked, 500);
    expect(d.waveform!.scale).toBe('v(v-sweep)');
    expect(d.vectors['v(out)']).toEqual({ type: 'voltage', final: 5, min: 0, max: 5 });
    const op = byName('Operating Point');
    const o = summarise(op, selectVectors(op, undefined).picked, 500);
    expect(o.waveform).toBeNull();
    expect(o.vectors).toMatchObject({ 'v(in)': { final: 1 }, 'v(out)': { final: 1 }, 'i(v1)': { final: 0 } });
    const tran = byName('Transient Analysis');
    const t = summarise(tran, selectVectors(tran, ['out', 'I(V1)']).picked, 50);
    expect(Object.keys(t.vectors)).toEqual(['v(out)', 'i(v1)']);
    expect(t.vectors['v(out)']).toMatchObject({ final: expect.closeTo(0.9981, 3) });
    expect((t.vectors['i(v1)'] as { min: number }).min).toBeCloseTo(-0.997e-3, 5);
    expect(t.waveform).toMatchObject({ scale: 'time', points: 50, source_points: 219, decimated: true });
    expect(t.waveform!.x[0]).toBe(0);
    expect(t.waveform!.x.at(-1)).toBeCloseTo(1e-3, 9);
    const full = summarise(tran, selectVectors(tran, ['out']).picked, 1000).waveform!;
    const tau = 159.155e-6;
    const k = full.x.findIndex((x) => x >= tau);
    const y = full.series['v(out)'] as number[];
    const atTau = y[k - 1] + ((y[k] - y[k - 1]) * (tau - full.x[k - 1])) / (full.x[k] - full.x[k - 1]);
    expect(atTau).toBeCloseTo(0.631, 2);
  });

  it('reads the non-converging run as a transient plot with no points and no variables', () => {
    const [p] = parseRawFile(read('rc_nonconv.ascii.raw'));
    expect(p).toMatchObject({ plotname: 'Transient Analysis', declaredPoints: 0, points: 0, variables: [] });
  });

  it('names unknown probes and lists the available vectors', () => {
    const tran = byName('Transient Analysis');
    expect(selectVectors(tran, ['v(nope)', 'out'])).toMatchObject({
      unknown: ['v(nope)'],
      available: ['v(in)', 'v(out)', 'i(v1)'],
    });
  });

  it('reads values split by any whitespace and complex values with spaces around the comma', () => {
    const text =
      'Title: t\nPlotname: AC Analysis\nFlags: complex\nNo. Variables: 2\nNo. Points: 2\nVariables:\n\t0\tfrequency\tfrequency\n\t1\tv(a)\tvoltage\nValues:\n0 1,0 2 , -1\n1\n 10,0\n\t3 ,4\n';
    const [p] = parseRawFile(text);
    expect(Array.from(p.real[1])).toEqual([2, 3]);
    expect(Array.from(p.imag![1])).toEqual([-1, 4]);
  });

  it('fails naming the line on malformed data, a wrong point index and binary data', () => {
    const head =
      'Title: t\nPlotname: Operating Point\nFlags: real\nNo. Variables: 1\nNo. Points: 1\nVariables:\n\t0\tv(a)\tvoltage\n';
    expect(() => parseRawFile(`${head}Values:\n0\t1.0x\n`)).toThrow(/line 9: "1.0x" is not a number/);
    expect(() => parseRawFile(`${head}Values:\n3\t1.0\n`)).toThrow(/line 9: expected point index 0/);
    expect(() => parseRawFile(`${head}Binary:\n`)).toThrow(RawFileError);
    expect(() => parseRawFile('garbage here\n')).toThrow(/line 1: expected a header line/);
    expect(() => parseRawFile(`${head}Values:\n0\n`)).toThrow(/end inside point 0/);
  });
});
