import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from '../../../../actors/adapters/kit/tool.ts';
import { Workspace } from '../../../../actors/adapters/kit/workspace.ts';
import { prepareNetlist } from '../../../../actors/adapters/circuit/netlist.ts';
import { SIM_FIXTURES } from '../../../support/sim-fixtures.ts';

// The hostile netlist corpus: every statement here must be refused before ngspice sees it (an allow-list of statements).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'netlist-hostile-'));
const ws = new Workspace(root);
fs.mkdirSync(path.join(root, 'models'));
fs.writeFileSync(path.join(root, 'models/ok.lib'), '.lib tt\nR9 q 0 1k\n.endl\n');
const viaWorkspace = (f: string) => ws.resolve(path.resolve(root, f), 'include');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const body = 'V1 a 0 1\nR1 a 0 1k\n.op\n.end\n';
const refusal = async (text: string): Promise<InvalidArgumentsError> => {
  const err = await prepareNetlist(text, 'op', undefined, viaWorkspace).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof InvalidArgumentsError))
    throw new Error(`expected a refusal of ${JSON.stringify(text)}, got ${String(err)}`);
  return err;
};

describe('control-script markers are refused on any line, line 1 included', () => {
  it.each([
    ['*ng_script on line 1', '*ng_script\nshell touch ../../../pwned\n.end\n', 1],
    ['*ng_script with leading spaces and another case', '   *NG_SCRIPT\nshell touch pwned\n.end\n', 1],
    ['*ng_script on a later line', `* t\n${body.replace('.end', '*ng_script')}.end\n`, 5],
    ['*ng_script_with_params later, indented', '* t\nV1 a 0 1\n  *Ng_Script_With_Params\n.end\n', 3],
    ['.control on line 1', '.control\nshell touch pwned\n.endc\n' + body, 1],
    ['.CONTROL on a later line', `* t\n${body.replace('.op', '.CONTROL\nshell touch pwned\n.ENDC\n.op')}`, 4],
    ['a stray .endc', '* t\n.endc\n' + body, 2],
    ['shell as a statement', '* t\nshell touch pwned\n' + body, 2],
    ['SHELL indented', '* t\n  SHELL rm -rf /\n' + body, 2],
    ['.exec block', '* t\n.exec\nshell touch pwned\n.endexec\n' + body, 2],
    ['an unknown dot card', '* t\n.csparam x=1\n' + body, 2],
    ['a line of no statement', '* t\n# touch pwned\n' + body, 2],
  ])('%s', async (_name, text, line) => {
    const e = await refusal(text);
    expect(e.message).toMatch(new RegExp(`line ${line}\\b`));
  });
});

describe('expressions name only arithmetic functions', () => {
  it.each([
    ['.param calling out', '* t\n.param p = {shell("touch pwned")}\n' + body, 'shell'],
    ['.func calling out', '* t\n.func f(x) {system(x)}\n' + body, 'system'],
    ['a brace expression on an element', '* t\nV1 a 0 1\nR1 a 0 {fopen(1)}\n.op\n.end\n', 'fopen'],
    ['a quoted expression on a continuation', "* t\nV1 a 0 1\nR1 a 0\n+ 'exec(2)'\n.op\n.end\n", 'exec'],
  ])('%s', async (_name, text, fn) => {
    expect((await refusal(text)).message).toContain(fn);
  });

  it('accepts built-in functions and functions the netlist defines', async () => {
    const text =
      '* t\n.func half(x) {x/2}\n.param r = {half(sqrt(4e6)) * max(1, 2)}\nV1 a 0 1\nR1 a 0 {r}\n.op\n.end\n';
    await expect(prepareNetlist(text, 'op', undefined, viaWorkspace)).resolves.toMatchObject({ card: '.op' });
  });
});

describe('every include form is checked against the workspace', () => {
  it.each([
    ['.incl', '* t\n.incl /etc/hostname\n' + body],
    ['.includex', '* t\n.includex /etc/hostname\n' + body],
    ['.INC upper case, quoted', '* t\n.INC "/etc/hostname"\n' + body],
    ['.libx file section', '* t\n.libx /etc/hostname tt\n' + body],
    ['.LIB quoted, with a section', "* t\n.LIB '/etc/hostname' tt\n" + body],
    ['.library', '* t\n.library /etc/hostname tt\n' + body],
    ['a .. climb', '* t\n.include ../../../../etc/hostname\n' + body],
    ['a climb out of a workspace folder', '* t\n.inc models/../../x.lib\n' + body],
    ['an include on line 1 (ngspice reads it)', '.include /etc/hostname\n' + body],
  ])('%s', async (_name, text) => {
    expect((await refusal(text)).message).toMatch(/outside the workspace|leads outside/);
  });

  it('refuses a file-reading model parameter and an option that sets a simulator variable', async () => {
    expect(
      (await refusal('* t\nA1 %v([out]) src\n.model src filesource (file="/etc/hostname")\n' + body)).message,
    ).toMatch(/line 3.*file=/);
    expect((await refusal('* t\n.options filetype=binary\n' + body)).message).toMatch(/line 2.*filetype/);
  });

  it('rewrites a workspace .lib file section to its absolute path and keeps a section header as it is', async () => {
    const p = await prepareNetlist(
      '* t\n.LIB models/ok.lib tt\n.lib local\nR5 a 0 1\n.endl\n' + body,
      'op',
      undefined,
      viaWorkspace,
    );
    expect(p.text).toContain(`.LIB "${root}/models/ok.lib" tt\n.lib local\n`);
    expect(p.includes).toEqual([`${root}/models/ok.lib`]);
  });
});

describe('netlists of allowed statements still pass', () => {
  it('accepts the fixtures and a netlist using every kind of allowed statement', async () => {
    for (const f of ['rc_lowpass.cir', 'rc_nonconv.cir', 'bad_syntax.cir']) {
      const text = fs.readFileSync(`${SIM_FIXTURES}/spice/${f}`, 'utf8');
      await expect(
        prepareNetlist(text, f === 'rc_nonconv.cir' ? 'transient' : 'op', undefined, viaWorkspace),
      ).resolves.toMatchObject({ includes: [] });
    }
    const rich = [
      '.include models/ok.lib',
      '; a comment',
      '$ another comment',
      '.title rich',
      '.options reltol=1e-4 abstol = 1e-12 method=gear noacct',
      '.param vdd=5 rload={2*sqrt(1e6)}',
      '.func twice(x) {2*x}',
      '.global vdd_node',
      '.model dx D (IS=2.52n RS=0.568 N=1.752)',
      '.subckt stage in out params: r=1k',
      'R1 in out {r}',
      '.ends stage',
      'V1 in 0 DC {vdd} AC 1',
      'Load1 in mid 1u',
      'X1 mid out stage r={twice(500)}',
      'D1 out 0 dx',
      'B1 b 0 V = v(out) > 0.5 ? 0 : 1',
      'Rb b 0 1k',
      '+ tc1=0',
      '.ic v(out)=0',
      '.temp 27',
      '.save all',
      '.meas tran tr WHEN v(out)=1 RISE=1',
      '.tran 1u 1m',
      '.end',
    ].join('\n');
    const p = await prepareNetlist(rich, 'transient', undefined, viaWorkspace);
    expect(p.text.split('\n')[0]).toBe(`.include "${root}/models/ok.lib"`);
    expect(p.card).toBe('.tran 1u 1m');
  });
});
