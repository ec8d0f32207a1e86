import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failureMessage, judgeRun } from '../../../../actors/adapters/circuit/outcome.ts';
import { parseRawFile } from '../../../../actors/adapters/circuit/raw-file.ts';
import { SIM_FIXTURES } from '../../../support/sim-fixtures.ts';

const SPICE = `${SIM_FIXTURES}/spice`;
const read = (f: string) => fs.readFileSync(`${SPICE}/${f}`, 'utf8');
const captured = (name: string, exitCode: number) => ({
  exitCode,
  signal: null,
  stdout: read(`${name}.stdout.txt`),
  stderr: read(`${name}.stderr.txt`),
});

describe('judging an ngspice run from exit code, stderr, stdout and data points together', () => {
  it('passes the RC low-pass run, keeping its note in the log', () => {
    const plot = parseRawFile(read('rc_lowpass.ascii.raw')).find((p) => p.plotname === 'AC Analysis');
    const v = judgeRun(captured('rc_lowpass', 0), plot, 'AC Analysis');
    expect(v).toMatchObject({ converged: true, errors: [] });
    expect(v.log).toEqual(['Note: v1: dc value used for op instead of transient time=0 value.']);
  });

  it('fails the non-converging run with "Timestep too small" and the stdout failure line', () => {
    const [plot] = parseRawFile(read('rc_nonconv.ascii.raw'));
    const v = judgeRun(captured('rc_nonconv', 1), plot, 'Transient Analysis');
    expect(v.converged).toBe(false);
    expect(v.errors).toContain('doAnalyses: TRAN:  Timestep too small; initial timepoint: trouble with node "out"');
    expect(v.errors).toContain('run simulation(s) aborted');
    expect(v.errors).toContain('Transient solution failed -');
    expect(v.errors.some((e) => /gmin/.test(e))).toBe(false);
    expect(v.log.some((l) => /b1#branch/.test(l))).toBe(true);
    expect(failureMessage(v)).toMatch(/^ngspice simulation failed: .*Timestep too small/);
  });

  it('fails the bad-syntax run with the offending line and the reason, with no raw file', () => {
    const v = judgeRun(captured('bad_syntax', 1), undefined, 'Operating Point');
    expect(v.converged).toBe(false);
    expect(v.errors.slice(0, 3)).toEqual([
      'Error on line 4 or its substitute:',
      'd1 a 0 nosuchmodel',
      'could not find a valid modelname',
    ]);
    expect(v.errors).toContain('Error: circuit not parsed.');
    expect(v.errors).toContain('no "Operating Point" results in the raw file');
  });

  it('fails an exit-0 run without data points, and an exit-1 run with data', () => {
    const empty = {
      plotname: 'Operating Point',
      title: '',
      complex: false,
      variables: [],
      declaredPoints: 0,
      points: 0,
      real: [],
      imag: null,
    };
    expect(judgeRun({ exitCode: 0, signal: null, stdout: '', stderr: '' }, empty, 'Operating Point').errors).toEqual([
      'the "Operating Point" results have no data points',
    ]);
    const plot = parseRawFile(read('rc_lowpass.ascii.raw'))[0];
    expect(judgeRun({ exitCode: 1, signal: null, stdout: '', stderr: '' }, plot, 'AC Analysis').errors).toEqual([
      'ngspice exited with code 1',
    ]);
  });
});
