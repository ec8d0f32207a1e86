import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../../workers/cad/kernel.ts';
import { sessionTasks, type FeatureInput, type SessionAction } from '../../../workers/cad/session/tasks.ts';

// The real kernel in this test's own thread (no worker): the session document and its operations.
beforeAll(async () => {
  await initKernel({ warm: false });
}, 60_000);

let n = 0;
async function runAll(ops: [string, Record<string, unknown>][]) {
  const id = `unit-${++n}`;
  const history: FeatureInput[] = [];
  const results: Record<string, any>[] = [];
  for (const [op, args] of ops) {
    const r = (await sessionTasks.session({
      session_id: id,
      expected_seq: history.length,
      action: { type: 'op', op, args } as SessionAction,
    })) as any;
    results.push(r.result);
    if (r.recorded) history.push({ seq: history.length + 1, op: op as FeatureInput['op'], args });
  }
  return { id, history, results };
}
const q = (id: string, seq: number, name: string, args = {}, history?: FeatureInput[]) =>
  sessionTasks.session({
    session_id: id,
    expected_seq: seq,
    history,
    action: { type: 'query', name, args } as SessionAction,
  }) as Promise<any>;

describe('session document on the real kernel', () => {
  it('pads a sketch into a body, pockets it through, fillets vertical edges; ids are deterministic', async () => {
    const { id, history, results } = await runAll([
      ['create_body', { name: 'bracket' }],
      ['create_sketch', { plane: 'XY', profile: { type: 'rectangle', width: 60, height: 40 } }],
      ['pad_sketch', { sketch_id: 'sketch_1', length: 10, body_id: 'body_1' }],
      ['create_sketch', { plane: 'XY', offset: 10, profile: { type: 'circle', radius: 5 } }],
      ['pocket_sketch', { sketch_id: 'sketch_2', target_id: 'body_1', through_all: true }],
      ['fillet_edges', { object_id: 'body_1', radius: 2, edges: 'vertical' }],
    ]);
    expect(results[2]).toMatchObject({ obj_id: 'body_1', kind: 'solid', volume_mm3: 24000 });
    expect(results[4].volume_mm3).toBeCloseTo(24000 - Math.PI * 25 * 10, 3);
    expect(results[5].volume_mm3).toBeCloseTo(24000 - Math.PI * 250 - 4 * (4 - Math.PI) * 10, 3);
    // A thread that lost the document (recycled, crashed, another node) rebuilds the same one from the history.
    const fresh = await q(`${id}-replayed`, history.length, 'describe_model', {}, history);
    expect(fresh.result.objects.map((o: any) => o.obj_id)).toEqual(['body_1', 'sketch_1', 'sketch_2']);
    expect(fresh.result.objects[0].volume_mm3).toBeCloseTo(results[5].volume_mm3, 6);
    expect(await q(`${id}-other`, 3, 'describe_model')).toEqual({ needs_replay: true });
  });

  it('revolves, lofts, sweeps and patterns with exact volumes', async () => {
    const { results } = await runAll([
      ['create_sketch', { plane: 'XZ', profile: { type: 'rectangle', width: 10, height: 20, center: [15, 10] } }],
      ['revolve_sketch', { sketch_id: 'sketch_1' }],
      ['create_sketch', { profile: { type: 'rectangle', width: 40, height: 40 } }],
      ['create_sketch', { offset: 30, profile: { type: 'circle', radius: 10 } }],
      ['loft_sketches', { sketch_ids: ['sketch_2', 'sketch_3'] }],
      [
        'create_sketch',
        {
          plane: 'XZ',
          profile: {
            type: 'path',
            points: [
              [0, 0],
              [0, 30],
              [20, 50],
            ],
          },
        },
      ],
      ['sweep_sketch', { path_sketch_id: 'sketch_4', profile: { type: 'circle', radius: 3 } }],
      ['create_primitive', { shape_type: 'cylinder', parameters: { radius: 2, height: 5 } }],
      ['linear_pattern', { object_id: 'part_4', direction: [1, 0, 0], count: 4, spacing: 10 }],
    ]);
    expect(results[1].volume_mm3).toBeCloseTo(Math.PI * (20 * 20 - 10 * 10) * 20, 3);
    expect(results[4].volume_mm3).toBeGreaterThan(Math.PI * 100 * 30);
    expect(results[6].is_valid).toBe(true);
    expect(results[8].volume_mm3).toBeCloseTo(4 * Math.PI * 4 * 5, 3);
    expect(results[8].bounding_box).toMatchObject({ min: [-2, -2, 0], max: [32, 2, 5] });
  });

  it('transforms with a verified placement and measures in the global frame', async () => {
    const { id, history, results } = await runAll([
      ['create_primitive', { shape_type: 'box', parameters: { length: 20, width: 10, height: 5 } }],
      [
        'transform_object',
        { object_id: 'part_1', rotate: { axis: [0, 0, 1], angle_deg: 90, center: [0, 0, 0] }, translate: [100, 0, 0] },
      ],
      ['transform_object', { object_id: 'part_1', position: [0, 0, 50] }],
    ]);
    expect(results[1].placement).toEqual({ position: [100, 0, 0], rotation: { axis: [0, 0, 1], angle_deg: 90 } });
    expect(results[1].bounding_box).toMatchObject({ min: [90, 0, 0], max: [100, 20, 5] });
    expect(results[2].placement.position).toEqual([0, 0, 50]);
    expect(results[2].verified).toBe(true);
    const m = await q(id, history.length, 'measure', { object_id: 'part_1' });
    expect(m.result).toMatchObject({ frame: 'global', bounding_box: { min: [-10, 0, 50], max: [0, 20, 55] } });
  });

  it('refuses an oversized fillet and a shell that would change nothing, and keeps the document clean', async () => {
    const { id, history } = await runAll([
      ['create_primitive', { shape_type: 'box', parameters: { length: 10, width: 10, height: 10 } }],
    ]);
    const fillet = sessionTasks.session({
      session_id: id,
      expected_seq: history.length,
      action: { type: 'op', op: 'fillet_edges', args: { object_id: 'part_1', radius: 6 } },
    });
    await expect(fillet).rejects.toThrow(/fillet 6 mm produced no valid solid/);
    expect(await q(id, history.length, 'describe_model')).toEqual({ needs_replay: true });
    const shell = sessionTasks.session({
      session_id: id,
      expected_seq: 1,
      history,
      action: { type: 'op', op: 'shell_solid', args: { object_id: 'part_1', thickness: 6 } },
    });
    await expect(shell).rejects.toThrow(/shell 6 mm produced no valid solid/);
  });
});
