import { describe, expect, it } from 'vitest';
import {
  AssemblyJointSchema,
  AssemblyPartKindSchema,
  AssemblyPartSchema,
  AssemblyResponseSchema,
  BooleanCutRequestSchema,
  BooleanCutResponseSchema,
  BooleanOperationSchema,
  BringUpChecklistRequestSchema,
  BringUpChecklistResponseSchema,
  BringUpStepSchema,
  CompileRequestSchema,
  CompileResponseSchema,
  ConversionResultSchema,
  ConvertUploadFormSchema,
  CreateAssemblyRequestSchema,
  HoleSchema,
} from '../../contracts/cad.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

const part = {
  name: 'base',
  kind: 'box',
  parameters: { length: 100, width: 50, height: 10 },
  position: [0, 0, 0],
  fillet: 2,
  holes: [{ diameter: 5 }],
};

describe('AssemblyPartSchema', () => {
  it('accepts a part with a fillet or with a chamfer, and a permissive hole', () => {
    expect(AssemblyPartSchema.parse(part)).toEqual(part);
    expect(
      ok(AssemblyPartSchema, {
        name: 'pin',
        kind: 'cylinder',
        parameters: { radius: 2, height: 20 },
        chamfer: 0.5,
        fillet: null,
      }),
    ).toBe(true);
    expect(ok(HoleSchema, { x: 1, y: 2, through: true })).toBe(true);
    expect(AssemblyPartKindSchema.options).toEqual(['box', 'cylinder', 'cone', 'sphere']);
  });
  it('rejects fillet and chamfer together, a zero fillet, an unknown kind, a non-number parameter and an empty name', () => {
    expect(ok(AssemblyPartSchema, { ...part, chamfer: 1 })).toBe(false);
    expect(ok(AssemblyPartSchema, { ...part, fillet: 0 })).toBe(false);
    expect(ok(AssemblyPartSchema, { ...part, kind: 'torus' })).toBe(false);
    expect(ok(AssemblyPartSchema, { ...part, parameters: { length: '100' } })).toBe(false);
    expect(ok(AssemblyPartSchema, { ...part, name: '' })).toBe(false);
    expect(ok(AssemblyPartSchema, { ...part, position: [0, 0] })).toBe(false);
    expect(ok(HoleSchema, [1])).toBe(false);
  });
});

describe('CreateAssemblyRequestSchema and AssemblyResponseSchema', () => {
  it('accept a request and its answer', () => {
    expect(ok(CreateAssemblyRequestSchema, { name: 'rig', parts: [part], project_id: null })).toBe(true);
    const res = {
      node_id: 'n1',
      model_url: '/v1/twin/nodes/n1/model',
      part_count: 1,
      content_hash: null,
      minio_object_key: null,
    };
    expect(AssemblyResponseSchema.parse(res)).toEqual(res);
  });
  it('reject an empty parts list and a missing part_count', () => {
    expect(ok(CreateAssemblyRequestSchema, { name: 'rig', parts: [] })).toBe(false);
    expect(
      ok(AssemblyResponseSchema, { node_id: 'n1', model_url: 'u', content_hash: null, minio_object_key: null }),
    ).toBe(false);
  });
});

describe('AssemblyJointSchema', () => {
  it('defaults anchor to [0,0,0] and axis to [0,0,1]', () => {
    const joint = AssemblyJointSchema.parse({ name: 'j1', type: 'revolute', base: 'base', follower: 'arm' });
    expect(joint.anchor).toEqual([0, 0, 0]);
    expect(joint.axis).toEqual([0, 0, 1]);
  });
  it('rejects an empty follower, a two-number axis and non-number limits', () => {
    expect(ok(AssemblyJointSchema, { name: 'j', type: 't', base: 'b', follower: '' })).toBe(false);
    expect(ok(AssemblyJointSchema, { name: 'j', type: 't', base: 'b', follower: 'f', axis: [0, 1] })).toBe(false);
    expect(ok(AssemblyJointSchema, { name: 'j', type: 't', base: 'b', follower: 'f', limits: { lower: 'x' } })).toBe(
      false,
    );
  });
});

describe('CompileRequestSchema and CompileResponseSchema', () => {
  it('accept a description-only request and an unbuildable answer', () => {
    expect(CompileRequestSchema.parse({ description: 'a two-link arm' })).toEqual({ description: 'a two-link arm' });
    expect(ok(CompileResponseSchema, { spec: null, buildable: false, errors: ['no base part'] })).toBe(true);
  });
  it('reject an empty description and a string buildable', () => {
    expect(ok(CompileRequestSchema, { description: '' })).toBe(false);
    expect(ok(CompileResponseSchema, { spec: {}, buildable: 'yes', errors: [] })).toBe(false);
  });
});

describe('boolean cut', () => {
  it('defaults operation to subtract', () => {
    expect(BooleanCutRequestSchema.parse({ target_node_id: 'a', cutter_node_id: 'b' }).operation).toBe('subtract');
    expect(BooleanOperationSchema.options).toEqual(['subtract', 'union', 'intersect']);
    expect(
      ok(BooleanCutResponseSchema, {
        node: { id: 'c' },
        operation: 'union',
        result_volume_mm3: 10,
        result_area_mm2: 20,
      }),
    ).toBe(true);
  });
  it('rejects an empty cutter, an unknown operation and a missing volume', () => {
    expect(ok(BooleanCutRequestSchema, { target_node_id: 'a', cutter_node_id: '' })).toBe(false);
    expect(ok(BooleanCutRequestSchema, { target_node_id: 'a', cutter_node_id: 'b', operation: 'difference' })).toBe(
      false,
    );
    expect(ok(BooleanCutResponseSchema, { node: {}, operation: 'union', result_area_mm2: 20 })).toBe(false);
  });
});

describe('conversion', () => {
  it('accepts a result and a STEP or IGES upload', () => {
    const res = {
      hash: 'b'.repeat(64),
      glb_url: '/v1/models/x.glb',
      metadata: { parts: [], stats: { triangles: 10 }, materials: [] },
      cached: true,
    };
    expect(ConversionResultSchema.parse(res)).toEqual(res);
    expect(ok(ConvertUploadFormSchema, { file: new File(['x'], 'bracket.STEP') })).toBe(true);
    expect(ok(ConvertUploadFormSchema, { file: new File(['x'], 'bracket.igs') })).toBe(true);
  });
  it('rejects a non-SHA-256 hash, a string cached and an STL upload', () => {
    const res = { hash: 'abc', glb_url: 'u', metadata: {}, cached: false };
    expect(ok(ConversionResultSchema, res)).toBe(false);
    expect(ok(ConversionResultSchema, { ...res, hash: 'b'.repeat(64), cached: 'no' })).toBe(false);
    expect(ok(ConvertUploadFormSchema, { file: new File(['x'], 'bracket.stl') })).toBe(false);
  });
});

describe('bring-up checklist', () => {
  const step = {
    step_number: 1,
    joint_name: 'j1',
    joint_type: 'revolute',
    base: 'base',
    follower: 'arm',
    instruction: 'rotate slowly',
  };
  it('accepts the request and the response', () => {
    expect(ok(BringUpChecklistRequestSchema, { work_product_id: 'wp1' })).toBe(true);
    expect(ok(BringUpStepSchema, step)).toBe(true);
    const res = { node_id: 'n1', statement: 'two joints', steps: [step] };
    expect(BringUpChecklistResponseSchema.parse(res)).toEqual(res);
  });
  it('rejects a missing work_product_id, step number 0 and steps that are not a list', () => {
    expect(ok(BringUpChecklistRequestSchema, { project_id: 'p1' })).toBe(false);
    expect(ok(BringUpStepSchema, { ...step, step_number: 0 })).toBe(false);
    expect(ok(BringUpChecklistResponseSchema, { node_id: 'n1', statement: '', steps: step })).toBe(false);
  });
});
