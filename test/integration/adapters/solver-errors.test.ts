import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, toolError } from '../../support/tools.ts';

/** Bad input and failures the solver must not hide (issue 5 "Bad input"; notes/solver.md "ccx exit codes lie"). */
const ws = tempWorkspace('solver-err-');
let t: TestNode;
let firstElement = -1;
const STATIC = { load_case: 'tip', analysis_type: 'static_stress', load_force_n: [0, 0, -1000] };
beforeAll(async () => {
  copyFixture(ws.root, 'beam_coarse.inp');
  copyFixture(ws.root, 'beam_coarse.frd');
  // A mesh with a node line broken on line 9, and one whose element names a node nobody defined.
  const lines = fs.readFileSync(path.join(ws.root, 'beam_coarse.inp'), 'utf8').split('\n');
  // The first element line of the C3D10 block, wherever the fixture's header puts it (0-based; the message is 1-based).
  firstElement = lines.findIndex((l) => /^\*ELEMENT\b.*C3D10/i.test(l)) + 1;
  fs.writeFileSync(
    path.join(ws.root, 'bad_node.inp'),
    lines.map((l, i) => (i === 8 ? '2, 0.0, zero, 0.0' : l)).join('\n'),
  );
  fs.writeFileSync(
    path.join(ws.root, 'bad_elem.inp'),
    lines.map((l, i) => (i === firstElement ? l.replace(/^(\d+), \d+,/, '$1, 99999,') : l)).join('\n'),
  );
  // A .frd whose displacement value on line 1845 is garbage, and one cut off in the middle.
  const frd = fs.readFileSync(path.join(ws.root, 'beam_coarse.frd'), 'latin1').split('\n');
  fs.writeFileSync(
    path.join(ws.root, 'bad.frd'),
    frd.map((l, i) => (i === 1844 ? l.slice(0, 13) + 'garbage!!!!!' + l.slice(25) : l)).join('\n'),
  );
  fs.writeFileSync(path.join(ws.root, 'cut.frd'), frd.slice(0, 3000).join('\n'));
  t = await startTestNode({
    roles: 'tools,adapter:solver',
    env: { SERVICE_REQUEST_TIMEOUT_MS: '300000', SERVICE_WORKSPACE: ws.root, SERVICE_SIM_FIELD_MAX_BYTES: '300' },
  });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

const call = (tool: string, args: Record<string, unknown>) => callTool(t.node.broker, `solver.${tool}`, args);

describe('bad input is refused, naming what is wrong', () => {
  it('names the line of a malformed .inp, and of an element pointing at an undefined node', async () => {
    const e = await toolError(call('run_fea', { mesh_file: 'bad_node.inp', ...STATIC }));
    expect(e.message).toContain('mesh_file line 9');
    expect(e.message).toContain('expected "id, x, y, z"');
    const v = await toolError(call('validate_mesh', { mesh_file: 'bad_elem.inp' }));
    expect(firstElement).toBeGreaterThan(0);
    expect(v.message).toMatch(new RegExp(`mesh_file line ${firstElement + 1}: element \\d+ refers to node 99999`));
  });

  it('names the line of a malformed .frd and of a truncated one', async () => {
    const e = await toolError(call('extract_results', { frd_path: 'bad.frd' }));
    expect(e.message).toContain('.frd line 1845');
    expect(e.message).toContain('garbage');
    const cut = await toolError(call('extract_results', { frd_path: 'cut.frd' }));
    expect(cut.message).toMatch(/\.frd line \d+: block \S+ is not closed by -3|without the closing 9999/);
  });

  it('refuses a missing mesh_file, an unknown material, an unknown node set and a path outside the workspace as invalid arguments', async () => {
    const none = await call('run_fea', { ...STATIC });
    expect(none).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
    const missing = await call('run_fea', { mesh_file: 'nope.inp', ...STATIC });
    expect(missing).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
    expect(JSON.stringify(missing)).toContain('nope.inp');
    const mat = await call('run_fea', { mesh_file: 'beam_coarse.inp', material: 'unobtainium', ...STATIC });
    expect(mat).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
    expect(JSON.stringify(mat)).toContain('aluminium_6061');
    const set = await call('run_fea', { mesh_file: 'beam_coarse.inp', fixed_node_set: 'CLAMP', ...STATIC });
    expect(JSON.stringify(set)).toContain(
      'fixed_node_set CLAMP is not a node set of the mesh; the mesh has FIXED, LOAD',
    );
    for (const p of ['../../etc/passwd', '/etc/hostname'])
      expect(await call('validate_mesh', { mesh_file: p })).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
    expect(await call('extract_results', { frd_path: '../outside.frd' })).toMatchObject({
      error: { type: 'INVALID_ARGUMENTS' },
    });
  });
});

describe('results that must not pass as success', () => {
  it('fails a part with no supports (ccx exits 0 with 1e11 mm) as an implausible result', async () => {
    const lines = fs.readFileSync(path.join(ws.root, 'beam_coarse.inp'), 'utf8');
    // FIXED reduced to a single node: the beam can spin about it, so the solve "succeeds" with absurd displacements.
    fs.writeFileSync(
      path.join(ws.root, 'floating.inp'),
      lines.replace(/\*NSET, NSET=FIXED\n[^*]*/, '*NSET, NSET=FIXED\n1,\n'),
    );
    const e = await toolError(call('run_fea', { mesh_file: 'floating.inp', ...STATIC }));
    expect(e.message).toMatch(
      /^implausible result: the largest displacement is \S+e\+\d+ mm on a 200 mm part, so the part is not held \(check fixed_node_set FIXED\)/,
    );
  }, 60_000);

  it('keeps the solve when the field cannot be built: field.error, the numbers, and the failed metric', async () => {
    const r = await okData(call('run_fea', { mesh_file: 'beam_coarse.inp', ...STATIC }));
    expect(r.max_von_mises_mpa).toBeCloseTo(584.1, 0);
    expect(r.field).toEqual({
      format: 'service.sim_field',
      media_type: 'application/vnd.service.sim-field+json',
      encoding: 'gzip',
      error: expect.stringContaining('300-byte cap'),
    });
    const metrics = await t.node.infra.metrics.registry.getSingleMetricAsString('service_sim_field_payload_total');
    expect(metrics).toMatch(/service_sim_field_payload_total\{analysis_type="static_stress",outcome="failed"\} [1-9]/);
  }, 60_000);

  it('warns when a load set spans more than half the part, and when the reaction does not balance the load', async () => {
    const lines = fs.readFileSync(path.join(ws.root, 'beam_coarse.inp'), 'utf8');
    fs.writeFileSync(path.join(ws.root, 'wide.inp'), lines.replace('*NSET, NSET=LOAD\n', '*NSET, NSET=LOAD\n1, 5,\n'));
    const r = await okData(call('run_fea', { mesh_file: 'wide.inp', ...STATIC }));
    // Node 1 sits on the clamp: its share of the load goes straight into the support, so the reaction is 24/25 of it.
    expect(r.warnings).toEqual([
      expect.stringMatching(
        /^load_node_set LOAD spans 200\.0 mm, more than half the part's longest axis \(200\.0 mm\)/,
      ),
      expect.stringMatching(/^the reaction on FIXED \(.*, 960 N\) does not balance the applied load/),
    ]);
  }, 60_000);
});
