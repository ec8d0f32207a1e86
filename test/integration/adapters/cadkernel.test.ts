import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { callTool, okData, realDbEnv, toolError } from '../../support/tools.ts';
import { patientCall, warmUp } from './cad-support.ts';

const require = createRequire(import.meta.url);
let t: TestNode;
let ws: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cadkernel-'));
  const db = await realDbEnv();
  drop = db.drop;
  t = await startTestNode({
    roles: 'tools,projects,twin,adapter:twin,adapter:cadkernel,cadsessions',
    env: { ...db.env, SERVICE_WORKSPACE: ws, SERVICE_CAD_THREADS: '1' },
  });
  await warmUp(t, 'cadkernel.get_properties');
});
afterAll(async () => {
  await t?.stop();
  await drop?.();
  fs.rmSync(ws, { recursive: true, force: true });
});

const tool = (name: string, args: Record<string, unknown>) => callTool(t.node.broker, `cadkernel.${name}`, args);
const open = async () => (await okData(tool('open_session', { name: 'test' }))).session_id as string;

describe('cadkernel sessions on the real kernel', () => {
  it('builds a part from sketches, verifies a transform, exports with colours and commits the stashed STEP', async () => {
    const sid = await open();
    await okData(
      tool('create_sketch', {
        session_id: sid,
        plane: 'XY',
        profile: { type: 'rectangle', width: 100, height: 40, corner_radius: 5 },
      }),
    );
    const pad = await okData(tool('pad_sketch', { session_id: sid, sketch_id: 'sketch_1', length: 10, name: 'plate' }));
    expect(pad).toMatchObject({ obj_id: 'part_1', name: 'plate', feature_count: 2, is_valid: true });
    const moved = await okData(
      tool('transform_object', {
        session_id: sid,
        object_id: 'part_1',
        rotate: { axis: [0, 0, 1], angle_deg: 90, center: [0, 0, 0] },
        translate: [0, 0, 20],
      }),
    );
    expect(moved).toMatchObject({
      verified: true,
      placement: { position: [0, 0, 20], rotation: { axis: [0, 0, 1], angle_deg: 90 } },
      bounding_box: { min: [-20, -50, 20], max: [20, 50, 30] },
    });
    const measured = await okData(tool('measure', { session_id: sid, object_id: 'part_1' }));
    expect(measured.bounding_box).toEqual(moved.bounding_box);

    const exp = await okData(
      tool('export_model', { session_id: sid, obj_id: 'part_1', material: 'steel', color: [255, 0, 0] }),
    );
    expect(exp.parts).toEqual([{ obj_id: 'part_1', name: 'plate', color: [1, 0, 0], color_source: 'color' }]);
    expect(exp.stored_properties.volume_mm3).toBeCloseTo(exp.volume_mm3, 3);
    expect(exp.stored_properties.bounding_box).toEqual(exp.bounding_box);
    expect(exp.placement_baked).toBe(false);
    const step = Buffer.from(exp.step_base64, 'base64');
    expect(step.toString('latin1')).toContain('ISO-10303-21');

    // The stash copy wins over a supplied step_base64 (SPEC Twin rule 6).
    const other = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString(
      'base64',
    );
    const commit = await okData(
      callTool(t.node.broker, 'twin.commit_geometry', {
        name: 'Plate',
        session_id: sid,
        obj_id: 'part_1',
        step_base64: other,
      }),
    );
    expect(commit).toMatchObject({
      source: 'stash',
      content_hash: crypto.createHash('sha256').update(step).digest('hex'),
    });
    const hist = await okData(tool('describe_session', { session_id: sid }));
    expect(hist.features.map((f: { op: string }) => f.op)).toEqual(['create_sketch', 'pad_sketch', 'transform_object']);
  });

  it('imports STEP colours and applies the colour precedence on export', async () => {
    const a = await open();
    await okData(
      tool('create_primitive', {
        session_id: a,
        shape_type: 'box',
        parameters: { length: 10, width: 10, height: 10 },
        name: 'block',
      }),
    );
    await okData(
      tool('create_primitive', {
        session_id: a,
        shape_type: 'cylinder',
        parameters: { radius: 3, height: 10, x: 30 },
        name: 'pin',
      }),
    );
    await okData(
      tool('export_model', {
        session_id: a,
        part_materials: { block: 'brass' },
        color: [0, 0, 1],
        output_path: 'colours/pair.step',
      }),
    );

    const b = await open();
    const imp = await okData(tool('import_step', { session_id: b, file_path: 'colours/pair.step' }));
    const byName = Object.fromEntries(imp.parts.map((p: { name: string; color: number[] }) => [p.name, p.color]));
    expect(byName.block.map((c: number) => +c.toFixed(2))).toEqual([0.8, 0.62, 0.25]);
    expect(byName.pin).toEqual([0, 0, 1]);

    const kept = await okData(tool('export_model', { session_id: b }));
    expect(kept.parts.map((p: { color_source: string }) => p.color_source)).toEqual(['import', 'import']);
    const mixed = await okData(
      tool('export_model', { session_id: b, part_materials: { pin: 'unobtainium' }, material: 'steel' }),
    );
    const src = Object.fromEntries(
      mixed.parts.map((p: { name: string; color_source: string; color: unknown }) => [
        p.name,
        [p.color_source, p.color],
      ]),
    );
    expect(src.pin).toEqual(['unknown_material:unobtainium', null]);
    expect(src.block[0]).toBe('material:steel');
  });

  it('records assemblies and joints, and refuses a joint on a part outside the assembly', async () => {
    const sid = await open();
    await okData(
      tool('create_primitive', {
        session_id: sid,
        shape_type: 'box',
        parameters: { length: 50, width: 50, height: 5 },
        name: 'base',
      }),
    );
    const asm = await okData(
      tool('create_assembly', {
        session_id: sid,
        name: 'arm',
        part_ids: ['part_1'],
        parts: [{ name: 'link', kind: 'cylinder', parameters: { radius: 4, height: 40 }, position: [0, 0, 5] }],
      }),
    );
    expect(asm).toMatchObject({ obj_id: 'assembly_1', part_count: 2 });
    const j = await okData(
      tool('add_assembly_joint', {
        session_id: sid,
        assembly_id: 'assembly_1',
        name: 'shoulder',
        type: 'revolute',
        base: 'base',
        follower: 'link',
        limits: { lower: -90, upper: 90 },
      }),
    );
    expect(j.joint).toMatchObject({ base: 'part_1', follower: 'part_2', anchor: [0, 0, 0], axis: [0, 0, 1] });
    expect((await okData(tool('list_joints', { session_id: sid }))).joints).toHaveLength(1);
    const bad = await tool('add_assembly_joint', {
      session_id: sid,
      assembly_id: 'assembly_1',
      name: 'x',
      type: 'fixed',
      base: 'base',
      follower: 'ghost',
    });
    expect(bad).toMatchObject({ error: { type: 'INVALID_ARGUMENTS' } });
  });

  it('runs code against the session: a solid result becomes an object, plain data is capped', async () => {
    const sid = await open();
    await okData(tool('create_primitive', { session_id: sid, shape_type: 'sphere', parameters: { radius: 5 } }));
    const r = await okData(
      tool('execute_code', { session_id: sid, code: 'result = getObject("part_1").translate([20, 0, 0])' }),
    );
    expect(r).toMatchObject({ obj_id: 'part_2', result_truncated: false, result: { type: 'shape', is_valid: true } });
    const listed = await okData(tool('execute_code', { session_id: sid, code: 'listObjects().map((o) => o.obj_id)' }));
    expect(listed).toMatchObject({ result: ['part_1', 'part_2'], feature_count: 2 });
  });
});

describe('cadkernel file tools', () => {
  const SAMPLES = path.join(path.dirname(require.resolve('occt-import-js/package.json')), 'test', 'testfiles');

  it('describes a CAx-IF assembly: every part with its name and colour, in mm', async () => {
    fs.mkdirSync(path.join(ws, 'samples'), { recursive: true });
    fs.copyFileSync(path.join(SAMPLES, 'cax-if', 'as1-oc-214.stp'), path.join(ws, 'samples', 'as1.stp'));
    const d = await okData(patientCall(t, 'cadkernel.describe_step_file', { file_path: 'samples/as1.stp' }));
    expect(d.part_count).toBe(18);
    expect(d.volume_mm3).toBeCloseTo(764522.7, 0);
    const names = new Set(d.parts.map((p: { name: string }) => p.name));
    expect([...names].some((n) => /nut/i.test(String(n)))).toBe(true);
    expect(d.parts.filter((p: { color: unknown }) => p.color !== null).length).toBeGreaterThan(0);
  });

  it('converts STEP units to mm and writes the beam for the solver chain', async () => {
    // The same cube written in inch, metre and millimetre: read back, all three are the same size in mm.
    const sizes = [];
    for (const unit of ['in', 'm', 'mm']) {
      fs.copyFileSync(
        path.join(SAMPLES, 'cube-units', `cube-${unit}.step`),
        path.join(ws, 'samples', `cube-${unit}.step`),
      );
      const d = await okData(tool('describe_step_file', { file_path: `samples/cube-${unit}.step` }));
      expect(d.units).toBe('mm');
      sizes.push(d.bounding_box.size);
    }
    expect(sizes[0][0]).toBeCloseTo(1000, 3);
    expect(sizes[1]).toEqual(sizes[0]);
    expect(sizes[2]).toEqual(sizes[0]);
    const beam = await okData(
      tool('create_parametric', {
        shape_type: 'beam',
        parameters: { length: 200, width: 20, height: 10 },
        output_path: 'chain/beam.step',
      }),
    );
    expect(beam).toMatchObject({
      cad_file: 'chain/beam.step',
      volume_mm3: 40000,
      bounding_box: { min: [0, 0, 0], max: [200, 20, 10] },
    });
  });
});

describe('cadkernel bad input', () => {
  it('refuses an oversized fillet, records nothing, and the session goes on', async () => {
    const sid = await open();
    await okData(
      tool('create_primitive', {
        session_id: sid,
        shape_type: 'box',
        parameters: { length: 100, width: 40, height: 10 },
      }),
    );
    const err = await toolError(tool('fillet_edges', { session_id: sid, object_id: 'part_1', radius: 6 }));
    expect(err.message).toMatch(/fillet 6 mm produced no valid solid/);
    const ok = await okData(tool('fillet_edges', { session_id: sid, object_id: 'part_1', radius: 2 }));
    expect(ok).toMatchObject({ is_valid: true, feature_count: 2 });
  });

  it('ends a script that loops forever as TOOL_TIMEOUT, kills its thread, and replays the session afterwards', async () => {
    const sid = await open();
    await okData(
      tool('create_primitive', { session_id: sid, shape_type: 'cylinder', parameters: { radius: 10, height: 20 } }),
    );
    const out = await call(t.node.broker, ToolsActions.call, {
      name: 'cadkernel.execute_code',
      arguments: { session_id: sid, code: 'while (true) {}' },
      timeout_seconds: 2,
      call_id: `t-${crypto.randomUUID()}`,
      caller: { kind: 'stdio', transport: 'stdio' },
    });
    expect(out).toMatchObject({ status: 'error', error: { type: 'TOOL_TIMEOUT' } });
    // The next call waits for the replacement thread (start + warm-up) and replays the session's history on it.
    const after = await okData(patientCall(t, 'cadkernel.measure', { session_id: sid, object_id: 'part_1' }));
    expect(after.volume_mm3).toBeCloseTo(Math.PI * 100 * 20, 3);
  });

  it('answers an unknown session id with a tool error naming it, and a path outside the workspace as invalid arguments', async () => {
    const err = await toolError(tool('measure', { session_id: '00000000-0000-4000-8000-000000000000' }));
    expect(err.message).toContain('unknown CAD session 00000000-0000-4000-8000-000000000000');
    expect(err.details).toMatchObject({ code: 'unknown_session' });
    expect((await toolError(tool('create_body', { session_id: 'not-a-session' }))).message).toContain(
      'unknown CAD session not-a-session',
    );
    const sid = await open();
    expect(await tool('import_step', { session_id: sid, file_path: '../outside.step' })).toMatchObject({
      error: { type: 'INVALID_ARGUMENTS' },
    });
  });
});
