import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';
import { callTool, okData, refusedIssues } from '../../support/tools.ts';
import { patientCall, warmUp } from './cad-support.ts';

// Issue 27 finding 4, the CAD side: a tool whose annotations say it only produces new files (class P) replaced any
// workspace file named as its output_path. Now an existing output is refused unless the call says overwrite: true.
const ws = tempWorkspace('cad-overwrite-');
let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({
    roles: 'tools,adapter:cadscript,adapter:cadkernel,cadsessions',
    env: { SERVICE_WORKSPACE: ws.root, SERVICE_CAD_THREADS: '1' },
  });
  await warmUp(t, 'cadscript.get_properties');
  await warmUp(t, 'cadkernel.get_properties');
}, 180_000);
afterAll(async () => {
  await t?.stop();
  ws.remove();
});

const BOX = { shape_type: 'box', parameters: { length: 10, width: 10, height: 10 } };
const abs = (rel: string) => path.join(ws.root, rel);
const fingerprint = (rel: string) => ({
  hash: crypto
    .createHash('sha256')
    .update(fs.readFileSync(abs(rel)))
    .digest('hex'),
  mtime: fs.statSync(abs(rel)).mtimeMs,
});
const plant = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
  fs.writeFileSync(abs(rel), text);
  return fingerprint(rel);
};
const refusedExisting = (r: Awaited<ReturnType<typeof callTool>>) =>
  expect(
    refusedIssues(r)
      .map((i) => i.message)
      .join(' '),
  ).toMatch(/output_path ".*" exists; pass overwrite: true/);

describe('CAD outputs never replace a workspace file unasked', () => {
  it('create_parametric (cadscript and cadkernel) onto an existing file: refused, the file unchanged', async () => {
    for (const tool of ['cadscript.create_parametric', 'cadkernel.create_parametric']) {
      const before = plant('keep/part.step', `ISO-10303-21; the approved part (${tool})\n`);
      const r = await patientCall(t, tool, { ...BOX, output_path: 'keep/part.step' });
      refusedExisting(r);
      expect(fingerprint('keep/part.step'), tool).toEqual(before);
    }
  });

  it('export_geometry and generate_mesh onto existing files: refused, the files unchanged', async () => {
    await okData(patientCall(t, 'cadscript.create_parametric', { ...BOX, output_path: 'src/box.step' }));
    const stl = plant('keep/box.stl', 'solid approved\nendsolid\n');
    refusedExisting(
      await patientCall(t, 'cadscript.export_geometry', {
        file_path: 'src/box.step',
        format: 'STL',
        output_path: 'keep/box.stl',
      }),
    );
    expect(fingerprint('keep/box.stl')).toEqual(stl);
    copyFixture(ws.root, 'beam_coarse.inp', 'keep/beam.inp');
    const inp = fingerprint('keep/beam.inp');
    refusedExisting(
      await patientCall(t, 'cadkernel.generate_mesh', { file_path: 'src/box.step', output_path: 'keep/beam.inp' }),
    );
    expect(fingerprint('keep/beam.inp')).toEqual(inp);
  });

  it('a session export_model onto an existing file: refused; overwrite: true replaces it', async () => {
    const session = (await okData(callTool(t.node.broker, 'cadkernel.open_session', { name: 'overwrite' })))
      .session_id as string;
    await okData(patientCall(t, 'cadkernel.create_primitive', { session_id: session, ...BOX, name: 'block' }));
    const before = plant('keep/model.step', 'ISO-10303-21; kept\n');
    refusedExisting(
      await patientCall(t, 'cadkernel.export_model', { session_id: session, output_path: 'keep/model.step' }),
    );
    expect(fingerprint('keep/model.step')).toEqual(before);
    await okData(
      patientCall(t, 'cadkernel.export_model', {
        session_id: session,
        output_path: 'keep/model.step',
        overwrite: true,
      }),
    );
    expect(fingerprint('keep/model.step').hash).not.toBe(before.hash);
  });
});
