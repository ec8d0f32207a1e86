import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool } from '../../support/tools.ts';

/**
 * The netlist allow-list's corpus (issue 27, finding 6), through the registry: every statement form, allowed or
 * refused, sent whole and split at each of its word boundaries into a `+` continuation with a comment and a blank line
 * between (ngspice joins those back). A split statement must get the verdict of the whole one: refused
 * (INVALID_ARGUMENTS, before ngspice runs) or not refused (it may still fail in ngspice: the verdict is the policy's).
 */
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'circuit-corpus-'));
const workspace = path.join(base, 'ws');
fs.mkdirSync(path.join(workspace, 'lib'), { recursive: true });
fs.writeFileSync(path.join(workspace, 'lib/parts.lib'), '.lib typ\nRlib x 0 1k\n.endl typ\n');
fs.writeFileSync(path.join(workspace, 'lib/r.inc'), 'Rinc y 0 1k\n');
fs.writeFileSync(path.join(workspace, 'lib/orphan.inc'), '* starts with a continuation\n+ R9 a 0 1k\n');

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:circuit', env: { SERVICE_WORKSPACE: workspace } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(base, { recursive: true, force: true });
});

/** Element lines of every letter ngspice reads as a device, and allowed dot cards: not refused. */
const ALLOWED = [
  'R2 a b 1k',
  'C1 a 0 1n',
  'L1 a c 1u',
  'K1 L1 L2 0.9',
  'V2 b 0 DC 1 AC 1 SIN(0 1 1k)',
  'I1 0 a PULSE(0 1m 0 1n 1n 1u 2u)',
  'E1 e 0 a 0 2',
  'F1 f 0 V1 2',
  'G1 g 0 a 0 1m',
  'H1 h 0 V1 10',
  "B1 bb 0 V={sqrt(abs(v(a)))+1} ; a comment with 'quotes'",
  'D1 a 0 dmod',
  'Q1 c b 0 qmod',
  'J1 d g 0 jmod',
  'M1 d g 0 0 mmod W=1u L=1u',
  'Z1 d g 0 zmod',
  'S1 a 0 c 0 smod',
  'W1 a 0 V1 wmod',
  'T1 a 0 b 0 Z0=50 TD=1n',
  'O1 a 0 b 0 lmod',
  'U1 a b 0 umod L=1m',
  'X1 a 0 sub',
  'A1 %v(a) %v(q) amod',
  '.model dmod D(Is=1e-14 N=1.8)',
  '.model amod gain(gain=2)',
  '.subckt sub p q',
  '.ends sub',
  '.param rr = {2*1k}',
  '.func ff(x) = {x*x}',
  '.global gnd2',
  '.options reltol=1e-4 abstol=1e-12 noacct',
  '.option gmin = 1e-12',
  '.temp 27',
  '.ic v(a)=0',
  '.nodeset v(a)=0',
  '.save v(a) i(v1)',
  '.print dc v(a)',
  '.meas tran tmax MAX v(a)',
  '.four 1k v(a)',
  '.tran 1u 1m',
  '.ac dec 10 1 1k',
  '.dc V1 0 1 0.1',
  '.noise v(a) V1 dec 10 1 1k',
  '.tf v(a) V1',
  '.include lib/r.inc',
  '.lib lib/parts.lib typ',
];

/** Refused forms: commands, script cards, files outside, file-reading code models and parameters, odd options. */
const REFUSED = [
  'shell touch /tmp/x',
  'source /etc/hostname',
  'exec /bin/sh',
  'codemodel /tmp/evil.cm',
  'cd /',
  'load /etc/hostname',
  'write /tmp/x v(a)',
  'wrdata /tmp/x v(a)',
  'set noaskquit',
  'pre_osdi /tmp/evil.osdi',
  'osdi /tmp/evil.osdi',
  'run',
  '.exec shell ls',
  '.csparam x=1',
  '.osdi /tmp/evil.osdi',
  '.system ls',
  '.model src filesource (file="/etc/hostname")',
  '.model src filesource (file "/etc/hostname")',
  '.model src filesource (amplscale=[1])',
  '.model t2 table2d (offset=0.0 gain=1 order=2 file="/etc/hostname")',
  '.model t3 TABLE3D (file={"/etc/hostname"})',
  '.model ds d_source (input_file = "/etc/hostname")',
  '.model dst d_state (clk_delay=1n state_file="/etc/hostname")',
  '.model any whatever (FILE_NAME="/etc/hostname")',
  '.model any2 whatever (filename "/etc/hostname")',
  'B2 b 0 V=1 file=/etc/hostname',
  '.options filetype=binary',
  '.options reltol=1e-4 noinit shell=1',
  '.param p = {system(1)}',
  '.func g(x) = {exec(x)}',
  "B3 b 0 V='getenv(1)'",
  '.include /etc/hostname',
  '.inc ../../etc/hostname',
  '.libx /etc/hostname typ',
];

/**
 * The statement and its splits: the words after a boundary (the first, the middle and the last) moved to a `+` line,
 * past a comment and a blank line.
 */
function variants(statement: string): string[] {
  const words = statement.split(' ');
  const cuts = new Set([1, Math.ceil(words.length / 2), words.length - 1].filter((k) => k > 0 && k < words.length));
  const split = (k: number) => `${words.slice(0, k).join(' ')}\n* comment\n\n+ ${words.slice(k).join(' ')}`;
  return [statement, ...[...cuts].map(split)];
}

async function refused(statement: string): Promise<boolean> {
  const netlist = `* corpus\nV1 a 0 1\nR1 a 0 1k\n${statement}\n.op\n.end\n`;
  const o = await callTool(t.node.broker, 'circuit.run_simulation', { netlist, analysis_type: 'op' });
  return o.status === 'error' && o.error.type === 'INVALID_ARGUMENTS';
}

const verdicts = async (list: string[], splits: boolean) => {
  const got: Record<string, boolean> = {};
  for (const s of list)
    for (const v of splits && !s.startsWith('.inc') && !s.startsWith('.lib') ? variants(s) : [s])
      got[v] = await refused(v);
  return got;
};

describe('the netlist allow-list over its corpus, whole and split into continuation lines', () => {
  it('refuses none of the allowed statements, whole or split', async () => {
    const got = await verdicts(ALLOWED, true);
    expect(Object.entries(got).filter(([, r]) => r)).toEqual([]);
  }, 120_000); // each allowed variant runs ngspice

  it('refuses every refused statement, whole and in every split', async () => {
    const got = await verdicts(REFUSED, true);
    expect(Object.entries(got).filter(([, r]) => !r)).toEqual([]);
  });

  it('refuses a continuation of an include card and one that follows no statement', async () => {
    const got = await verdicts(
      ['.include lib/r.inc\n+ Rx a 0 1k', '.lib lib/parts.lib\n+ typ', '.inc lib/orphan.inc'],
      false,
    );
    expect(Object.values(got)).toEqual([true, true, true]);
  });
});
