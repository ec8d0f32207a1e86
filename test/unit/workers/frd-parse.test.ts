import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FrdError, parseFrd, readBlock } from '../../../workers/simfield/frd-parse.ts';
import { readReal, roundSig } from '../../../workers/simfield/numbers.ts';
import { selectBlocks, detectAnalysis } from '../../../workers/simfield/select.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const load = (name: string) => {
  const b = fs.readFileSync(`${SIM_FIXTURES}/${name}`);
  return name.endsWith('.gz') ? zlib.gunzipSync(b) : b;
};
const bytes = (s: string) => Buffer.from(s, 'latin1');
const col = (s: string, w: number) => s.padStart(w);
const e12 = (x: number) =>
  col(
    x
      .toExponential(5)
      .replace(/e([+-])(\d)$/, 'E$10$2')
      .replace('e', 'E'),
    12,
  );

/** A tiny long-format `.frd`: node ids 10, 20, 30, 40 (not contiguous), one te4, a DISP block with touching negatives. */
function tinyFrd(opts: { flag?: number; dispLine?: string } = {}): Buffer {
  const xyz = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const nodes = xyz.map((p, k) => ` -1${col(String(10 * (k + 1)), 10)}${p.map(e12).join('')}`);
  const disp = xyz.map(
    (_, k) => ` -1${col(String(10 * (k + 1)), 10)}${[-(k + 1) * 1e-6, 2e-5, -3.5e-4].map(e12).join('')}`,
  );
  if (opts.dispLine) disp[1] = opts.dispLine;
  return bytes(
    [
      '    1C',
      `    2C${col('4', 30)}${col(String(opts.flag ?? 1), 38)}`,
      ...nodes,
      ' -3',
      `    3C${col('1', 30)}${col('1', 38)}`,
      ' -1         1    3    0    1',
      ' -2        10        20        30        40',
      ' -3',
      '    1PSTEP                         1           1           1',
      '  100CL  101 1.000000000           4                     0    1           1',
      ' -4  DISP        4    1',
      ' -5  D1          1    2    1    0',
      ' -5  D2          1    2    2    0',
      ' -5  D3          1    2    3    0',
      ' -5  ALL         1    2    0    0    1ALL',
      ...disp,
      ' -3',
      ' 9999',
      '',
    ].join('\n'),
  );
}

describe('fixed-column numbers', () => {
  it('reads E12.5 values that touch when negative, and other Fortran reals', () => {
    const line = bytes(' -1       955-6.41734E-06 1.17964E-05-6.33923E-04');
    expect([13, 25, 37].map((s) => readReal(line, s, s + 12))).toEqual([-6.41734e-6, 1.17964e-5, -6.33923e-4]);
    expect(readReal(bytes('  1.0'), 0, 5)).toBe(1);
    expect(readReal(bytes(' 1.00000-100'), 0, 12)).toBeCloseTo(1e-100, 110);
    expect(() => readReal(bytes('  garbage!!!'), 0, 12)).toThrow(/expected a number/);
  });

  it('rounds to significant digits without binary noise', () => {
    expect([
      roundSig(450.49999, 4),
      roundSig(0.000123456, 4),
      roundSig(12345, 4),
      roundSig(-0.00001, 4),
      roundSig(-1e-40, 4),
    ]).toEqual([450.5, 0.0001235, 12350, -0.00001, -1e-40]);
    expect(JSON.stringify(roundSig(0.1 + 0.2, 6))).toBe('0.3');
  });
});

describe('parseFrd', () => {
  it('maps non-contiguous node ids and reads a block by name, not from the 100C line', () => {
    const b = tinyFrd();
    const f = parseFrd(b);
    expect(Array.from(f.nodeIds)).toEqual([10, 20, 30, 40]);
    expect(Array.from(f.elemNodes)).toEqual([0, 1, 2, 3]);
    expect(f.blocks.map((x) => [x.name, x.components])).toEqual([['DISP', ['D1', 'D2', 'D3']]]);
    const d = readBlock(b, f, f.blocks[0]);
    expect(d[3]).toBe(-2e-6);
    expect(d[11]).toBe(-3.5e-4);
  });

  it('reads the coarse beam: nodes, te10 elements, every block (ALL excluded), the last static step', () => {
    const f = parseFrd(load('beam_coarse.frd'));
    expect([f.nodeIds.length, f.elemTypes.length, new Set(f.elemTypes).size, f.elemTypes[0]]).toEqual([955, 430, 1, 6]);
    expect(f.blocks.map((b) => b.name)).toEqual(['DISP', 'STRESS', 'TOSTRAIN', 'FORC', 'ERROR']);
    expect(f.blocks[1].components).toEqual(['SXX', 'SYY', 'SZZ', 'SXY', 'SYZ', 'SZX']);
    const two = parseFrd(load('beam_coarse_static2.frd.gz'));
    expect(selectBlocks(two, detectAnalysis(two))).toMatchObject({
      analysisType: 'static_stress',
      step: 2,
      disp: { step: 2 },
      stress: { step: 2 },
    });
  });

  it('finds mode 1 and the frequencies of a modal file', () => {
    const f = parseFrd(load('beam_coarse_modal.frd.gz'));
    const s = selectBlocks(f, detectAnalysis(f));
    expect(s.analysisType).toBe('modal');
    expect(s.disp).toMatchObject({ mode: 1, value: 209.8856455 });
    expect(s.modes.map((m) => m.frequency_hz)).toEqual(
      [209.8856455, 416.3824501, 1302.424916, 2498.81464, 3117.469185, 3592.731113].map((x) => expect.closeTo(x, 3)),
    );
  });

  it('names the line of bad data, a binary file, an undefined node and a truncated file', () => {
    const junk = tinyFrd({ dispLine: ' -1        20 1.00000E+00 x.00000E+00 1.00000E+00' });
    const f = parseFrd(junk);
    expect(() => readBlock(junk, f, f.blocks[0])).toThrow(FrdError);
    expect(() => readBlock(junk, f, f.blocks[0])).toThrow(
      /^\.frd line 20: expected a number, found " x\.00000E\+00" \(block DISP\)/,
    );
    expect(() => parseFrd(tinyFrd({ flag: 2 }))).toThrow(/binary \.frd/);
    const ghost = tinyFrd({ dispLine: ' -1        99 1.00000E+00 1.00000E+00 1.00000E+00' });
    expect(() => readBlock(ghost, parseFrd(ghost), parseFrd(ghost).blocks[0])).toThrow(
      /line 20: result for node 99, which the node block does not define/,
    );
    expect(() => parseFrd(tinyFrd().subarray(0, 400))).toThrow(/^\.frd line 10: element 1 of type te4 needs 4 nodes/);
    const whole = tinyFrd();
    expect(() => parseFrd(whole.subarray(0, whole.length - 12))).toThrow(/block DISP is not closed by -3/);
  });
});
