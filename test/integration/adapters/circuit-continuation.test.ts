import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, refusedIssues } from '../../support/tools.ts';

// Issue 27, finding 6: the allow-list checked each line on its own while ngspice joins `+` lines (skipping comment and
// blank lines between them) before it reads a statement, so `.model fsrc filesource (file` then `+ ="<outside>"` read
// a mode-600 file outside the workspace through the registry. Every refusal must also read the same whether the
// outside file exists or not (no existence oracle).
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'circuit-continuation-'));
const workspace = path.join(base, 'ws');
// Outside the workspace and outside /tmp (the sandbox's /tmp is private): a place the engine can read.
const outside = fs.mkdtempSync(path.join('/var/tmp', 'circuit-continuation-outside-'));
fs.mkdirSync(path.join(workspace, 'nets'), { recursive: true });
const secret = path.join(outside, 'secret.txt');
const missing = path.join(outside, 'absent.txt');
fs.writeFileSync(secret, '0 4.25\n1 4.25\n', { mode: 0o600 });

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ roles: 'tools,adapter:circuit', env: { SERVICE_WORKSPACE: workspace } });
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(base, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const TAIL =
  'amploffset=[0] amplscale=[1] timeoffset=0 timescale=1 timerelative=false amplstep=false)\n' +
  'a1 %v([out]) fsrc\nR1 out 0 1k\n.tran 0.1 1\n.end\n';

/** The finding's netlists: the file parameter split from its value by a `+` line, in the forms ngspice joins. */
const attacks = (file: string): Record<string, string> => ({
  'file then + =value': `* t\n.model fsrc filesource (file\n+ ="${file}" ${TAIL}`,
  'a comment and a blank line between': `* t\n.model fsrc filesource (file\n* hidden\n\n+ = "${file}" ${TAIL}`,
  'an inline ; comment': `* t\n.model fsrc filesource (file ; x\n+ = "${file}" ${TAIL}`,
  'upper case and tabs': `* t\n.MODEL fsrc FILESOURCE\t(FILE\n+\t=\t"${file}" ${TAIL}`,
  'no = at all (ngspice takes `file "x"`)': `* t\n.model fsrc filesource (file "${file}" ${TAIL}`,
  'the model type on its own + line': `* t\n.model fsrc\n+ filesource (amplscale=[1]\n+ file="${file}" ${TAIL}`,
  'd_source input_file, = on the next line': `* t\n.model ds d_source (input_file\n+ ="${file}")\na2 [d1] ds\n.tran 0.1 1\n.end\n`,
});

const refusal = async (netlist: string) => {
  const o = await callTool(t.node.broker, 'circuit.run_simulation', { netlist, analysis_type: 'transient' });
  if (o.status === 'success') return `RAN: ${JSON.stringify(o.data)}`;
  if (o.error.type !== 'INVALID_ARGUMENTS') return `RAN (${o.error.type}): ${o.error.message}`;
  return refusedIssues(o)
    .map((v) => v.message)
    .join('\n');
};

describe('circuit.run_simulation joins continuation lines before its allow-list (finding 6)', () => {
  for (const [name, netlist] of Object.entries(attacks(secret))) {
    it(`refuses the filesource attack: ${name}, and never reads the file`, async () => {
      const message = await refusal(netlist);
      expect(message).not.toMatch(/^RAN/);
      expect(message).not.toMatch(/4\.25/);
      expect(message).toMatch(/file/i);
      // The same words for a file that does not exist (past the caller's own path, quoted back): no existence oracle.
      const other = await refusal(attacks(missing)[name]!);
      const named = (m: string) => m.replace(/circuit-continuation-outside-\w+\/[^"\\]*/g, '<f>');
      expect(named(other)).toBe(named(message));
    });
  }

  it('refuses an include of a file outside the workspace in the same words whether it exists or not', async () => {
    for (const card of ['.include', '.lib', '.incl']) {
      const tail = card === '.lib' ? ' typ' : '';
      const present = await refusal(`* t\n${card} ${secret}${tail}\nV1 a 0 1\nR1 a 0 1k\n.tran 0.1 1\n.end\n`);
      const absent = await refusal(`* t\n${card} ${missing}${tail}\nV1 a 0 1\nR1 a 0 1k\n.tran 0.1 1\n.end\n`);
      expect(present).toMatch(/outside the workspace/);
      expect(absent.split(missing).join('<f>')).toBe(present.split(secret).join('<f>'));
    }
  });

  it('refuses a .options continuation that follows an include card (ngspice joins it to the included file)', async () => {
    fs.writeFileSync(path.join(workspace, 'nets/opts.inc'), '.options reltol=1e-3\n');
    const message = await refusal('* t\n.include nets/opts.inc\n+ filetype=binary\nV1 a 0 1\nR1 a 0 1k\n.end\n');
    expect(message).toMatch(/continuation/);
  });

  it('comments out every continuation of an analysis card it does not run, over comment lines too', async () => {
    // Left in place, `+ filetype=binary` would join the .options card once the .ac card before it is commented out.
    const r = await okData(
      callTool(t.node.broker, 'circuit.run_simulation', {
        netlist: '* t\nV1 a 0 1\nR1 a 0 1k\n.options reltol=1e-3\n.ac dec 10 1 1k\n* c\n+ filetype=binary\n.end\n',
        analysis_type: 'op',
      }),
    );
    expect(r.vectors['i(v1)']).toMatchObject({ final: expect.closeTo(-1e-3, 9) });
  });

  it('still runs a netlist whose statements continue over comment lines', async () => {
    const r = await okData(
      callTool(t.node.broker, 'circuit.run_simulation', {
        netlist: '* t\nV1 a 0\n* the value follows\n\n+ DC 1\nR1 a 0\n+ 2k ; a comment\n.op\n.end\n',
        analysis_type: 'op',
      }),
    );
    expect(r.vectors['i(v1)']).toMatchObject({ final: expect.closeTo(-5e-4, 9) });
  });
});
