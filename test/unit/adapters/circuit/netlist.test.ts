import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from '../../../../actors/adapters/kit/tool.ts';
import { analysisCard, prepareNetlist } from '../../../../actors/adapters/circuit/netlist.ts';
import { SIM_FIXTURES } from '../../../support/sim-fixtures.ts';

const RC = fs.readFileSync(`${SIM_FIXTURES}/spice/rc_lowpass.cir`, 'utf8');
const noInclude = async (f: string) => {
  throw new InvalidArgumentsError(`include ${f} refused`);
};

describe('analysis cards from params', () => {
  it('maps params to .op, .dc, .ac and .tran cards', () => {
    expect(analysisCard('op')).toBe('.op');
    expect(analysisCard('dc', { source: 'V1', start: 0, stop: 5, step: '0.5' })).toBe('.dc V1 0 5 0.5');
    expect(analysisCard('ac', { fstart: 10, fstop: '100k' })).toBe('.ac dec 10 10 100k');
    expect(analysisCard('ac', { variation: 'lin', points: 101, fstart: '1k', fstop: '2k' })).toBe('.ac lin 101 1k 2k');
    expect(analysisCard('transient', { tstep: '5u', tstop: '1m' })).toBe('.tran 5u 1m');
    expect(analysisCard('transient', { tstep: 1e-6, tstop: 1e-3, tmax: '1u', uic: true })).toBe(
      '.tran 0.000001 0.001 0 1u uic',
    );
    expect(analysisCard('transient', {})).toBeUndefined();
  });

  it('refuses missing and foreign keys, naming them', () => {
    expect(() => analysisCard('transient', { tstep: '1u' })).toThrow(/needs params tstop/);
    expect(() => analysisCard('ac', { tstop: '1m' })).toThrow(/params tstop do not apply to a ac analysis/);
    expect(() => analysisCard('op', { fstart: 1 })).toThrow(InvalidArgumentsError);
  });
});

describe('prepareNetlist', () => {
  it('keeps only the requested analysis and comments out the others', async () => {
    const p = await prepareNetlist(RC, 'ac', undefined, noInclude);
    expect(p.card).toBe('.ac dec 10 10 100k');
    const active = p.text.split('\n').filter((l) => /^\.(op|dc|ac|tran)\b/.test(l));
    expect(active).toEqual(['.ac dec 10 10 100k']);
    expect(p.text).toContain('* [not run] .tran 5u 1m');
  });

  it('replaces the netlist card with the params card, inserted before .end', async () => {
    const p = await prepareNetlist(RC, 'transient', { tstep: '1u', tstop: '2m' }, noInclude);
    expect(p.card).toBe('.tran 1u 2m');
    const lines = p.text.trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual(['.tran 1u 2m', '.end']);
    expect(p.text).toContain('* [replaced] .tran 5u 1m');
  });

  it('adds .op when the netlist has none, and asks for params when another analysis has no card', async () => {
    const bare = '* t\nV1 a 0 1\nR1 a 0 1k\n';
    expect((await prepareNetlist(bare, 'op', undefined, noInclude)).text).toBe('* t\nV1 a 0 1\nR1 a 0 1k\n.op\n.end\n');
    await expect(prepareNetlist(bare, 'dc', undefined, noInclude)).rejects.toThrow(
      /no \.dc card: give params \(source, start, stop, step\)/,
    );
  });

  it('comments out continuation lines of a removed card and treats line 1 as the title', async () => {
    const text = '.tran is the title\nV1 a 0 1\nR1 a 0 1k\n.tran 1u\n+ 1m\n.op\n.end\n';
    const p = await prepareNetlist(text, 'op', undefined, noInclude);
    expect(p.text).toBe('.tran is the title\nV1 a 0 1\nR1 a 0 1k\n* [not run] .tran 1u\n* + 1m\n.op\n.end\n');
  });

  it('refuses a .control block naming its line', async () => {
    const text = '* t\nV1 a 0 1\nR1 a 0 1k\n.control\nop\n.endc\n.end\n';
    await expect(prepareNetlist(text, 'op', undefined, noInclude)).rejects.toThrow(/\.control block \(line 4\)/);
  });

  it('rewrites include paths through the resolver, which may refuse them', async () => {
    const text = '* t\n.include "models/d.lib"\n.lib lib/x.lib tt\nV1 a 0 1\n.op\n.end\n';
    const p = await prepareNetlist(text, 'op', undefined, async (f) => `/ws/${f}`);
    expect(p.text).toContain('.include "/ws/models/d.lib"\n.lib "/ws/lib/x.lib" tt\n');
    expect(p.includes).toEqual(['/ws/models/d.lib', '/ws/lib/x.lib']);
    await expect(prepareNetlist('* t\n.include /etc/passwd\n.op\n', 'op', undefined, noInclude)).rejects.toThrow(
      /include \/etc\/passwd refused/,
    );
  });
});
