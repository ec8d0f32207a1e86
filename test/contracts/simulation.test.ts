import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  BBoxSchema,
  CheckMeshConvergenceInputSchema,
  FieldRangeSchema,
  FixtureMarkerSchema,
  LoadMarkerSchema,
  MeshConvergenceChangeSchema,
  MeshConvergencePointSchema,
  MeshConvergenceRecordSchema,
  SimFieldDecimationSchema,
  SimFieldMarkerSchema,
  SimFieldPayloadSchema,
  SimFieldPeakSchema,
  SimFieldQuantitySchema,
  SimFieldScalarSchema,
  SimFieldUnitsSchema,
  SolverFieldBuiltSchema,
  SolverFieldFailedSchema,
  SolverFieldObjectSchema,
  Vec3Schema,
} from '../../contracts/simulation.ts';
import { SIM_FIXTURES } from '../support/sim-fixtures.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

/** One triangle with three vertices: the smallest payload the spec allows. */
function payload() {
  return {
    format: 'service.sim_field',
    version: 1,
    analysis_type: 'static_stress',
    units: { length: 'mm', stress: 'MPa', displacement: 'mm', temperature: 'C' },
    positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
    indices: [0, 1, 2],
    displacement: [0, 0, 0, 0, 0, -0.1, 0, 0, 0],
    fields: {
      von_mises: {
        label: 'von Mises stress',
        unit: 'MPa',
        values: [1, 2, 3],
        min: 1,
        max: 3,
        peak: { position: [0, 1, 0], value: 3 },
      },
    },
    markers: [
      { kind: 'fixture', label: 'FIXED', position: [0, 0, 0], bbox: { min: [0, 0, 0], max: [0, 1, 0] } },
      { kind: 'load', label: 'LOAD', position: [1, 0, 0], vector: [0, 0, -1000], unit: 'N' },
    ],
    bbox: { min: [0, 0, 0], max: [1, 1, 0] },
    decimation: { applied: false, source_triangle_count: 1, cell_size_mm: null },
  };
}

describe('geometry pieces', () => {
  it('accept a Vec3 and a bbox', () => {
    expect(ok(Vec3Schema, [1, 2, 3])).toBe(true);
    expect(ok(BBoxSchema, { min: [0, 0, 0], max: [1, 1, 1] })).toBe(true);
  });
  it('reject two coordinates and a bbox without max', () => {
    expect(ok(Vec3Schema, [1, 2])).toBe(false);
    expect(ok(BBoxSchema, { min: [0, 0, 0] })).toBe(false);
  });
});

describe('payload parts', () => {
  it('accept the spec shapes', () => {
    const p = payload();
    expect(ok(SimFieldUnitsSchema, p.units)).toBe(true);
    expect(SimFieldQuantitySchema.options).toEqual(['von_mises', 'displacement_magnitude', 'temperature']);
    expect(ok(SimFieldPeakSchema, { position: [0, 0, 0], value: 1 })).toBe(true);
    expect(ok(SimFieldScalarSchema, p.fields.von_mises)).toBe(true);
    expect(ok(FixtureMarkerSchema, p.markers[0])).toBe(true);
    expect(ok(LoadMarkerSchema, p.markers[1])).toBe(true);
    expect(ok(SimFieldMarkerSchema, p.markers[1])).toBe(true);
    expect(ok(SimFieldDecimationSchema, { applied: true, source_triangle_count: 4426, cell_size_mm: 4.476 })).toBe(
      true,
    );
  });
  it('reject other units, an unknown quantity, a marker kind outside fixture|load and a load without vector', () => {
    expect(ok(SimFieldUnitsSchema, { length: 'm', stress: 'MPa', displacement: 'mm', temperature: 'C' })).toBe(false);
    expect(ok(SimFieldQuantitySchema, 'strain')).toBe(false);
    expect(ok(SimFieldPeakSchema, { position: [0, 0, 0] })).toBe(false);
    expect(
      ok(SimFieldScalarSchema, {
        label: 'x',
        unit: 'MPa',
        values: ['1'],
        min: 0,
        max: 1,
        peak: { position: [0, 0, 0], value: 1 },
      }),
    ).toBe(false);
    expect(ok(SimFieldMarkerSchema, { kind: 'contact', label: 'x', position: [0, 0, 0] })).toBe(false);
    expect(ok(LoadMarkerSchema, { kind: 'load', label: 'L', position: [0, 0, 0], unit: 'N' })).toBe(false);
    expect(ok(FixtureMarkerSchema, { kind: 'fixture', label: 'F', position: [0, 0, 0] })).toBe(false);
    expect(ok(SimFieldDecimationSchema, { applied: true, source_triangle_count: 1, cell_size_mm: 0 })).toBe(false);
  });
});

describe('SimFieldPayloadSchema', () => {
  it('accepts the spec shape and a thermal payload with an empty displacement', () => {
    expect(SimFieldPayloadSchema.parse(payload())).toEqual(payload());
    expect(ok(SimFieldPayloadSchema, { ...payload(), analysis_type: 'thermal', displacement: [] })).toBe(true);
  });
  it('rejects another version or format, an unknown quantity and broken vertex invariants', () => {
    expect(ok(SimFieldPayloadSchema, { ...payload(), version: 2 })).toBe(false);
    expect(ok(SimFieldPayloadSchema, { ...payload(), format: 'vtu' })).toBe(false);
    expect(ok(SimFieldPayloadSchema, { ...payload(), fields: { strain: payload().fields.von_mises } })).toBe(false);
    expect(ok(SimFieldPayloadSchema, { ...payload(), positions: [0, 0, 0, 1] })).toBe(false);
    expect(ok(SimFieldPayloadSchema, { ...payload(), indices: [0, 1] })).toBe(false);
    expect(ok(SimFieldPayloadSchema, { ...payload(), indices: [0, 1, 3] })).toBe(false);
    expect(ok(SimFieldPayloadSchema, { ...payload(), displacement: [0, 0, 0] })).toBe(false);
    const short = { ...payload().fields.von_mises, values: [1, 2] };
    expect(ok(SimFieldPayloadSchema, { ...payload(), fields: { von_mises: short } })).toBe(false);
  });

  const refDir = `${SIM_FIXTURES}/reference_payloads`;
  it.skipIf(!existsSync(refDir))('accepts every informative reference payload', () => {
    for (const file of readdirSync(refDir).filter((f) => f.endsWith('.field.json.gz'))) {
      const parsed = SimFieldPayloadSchema.safeParse(
        JSON.parse(gunzipSync(readFileSync(`${refDir}/${file}`)).toString('utf8')),
      );
      expect(parsed.success, `${file}: ${parsed.error?.message}`).toBe(true);
    }
  });
});

describe('SolverFieldObjectSchema', () => {
  const built = {
    file: 'runs/r1/beam.field.json.gz',
    base64: 'H4sIAAAAAAAAA6tWKkktLlGyUlAqS8wpTtVRSs7PS8tMBwCc8XtNFQAAAA==',
    format: 'service.sim_field',
    media_type: 'application/vnd.service.sim-field+json',
    encoding: 'gzip',
    quantities: ['von_mises', 'displacement_magnitude'],
    ranges: { von_mises: { min: 3.792, max: 584.1 } },
    vertex_count: 176,
    triangle_count: 348,
    decimated: false,
    source_triangle_count: 348,
  };
  const failed = {
    format: 'service.sim_field',
    media_type: 'application/vnd.service.sim-field+json',
    encoding: 'gzip',
    error: 'no stress block',
  };
  it('accepts a built and a failed field object', () => {
    expect(SolverFieldObjectSchema.parse(built)).toEqual(built);
    expect(SolverFieldObjectSchema.parse(failed)).toEqual(failed);
    expect(ok(SolverFieldBuiltSchema, built)).toBe(true);
    expect(ok(SolverFieldFailedSchema, failed)).toBe(true);
    expect(ok(FieldRangeSchema, { min: 0, max: 1 })).toBe(true);
  });
  it('rejects another media type or encoding and a built object missing its file', () => {
    expect(ok(SolverFieldObjectSchema, { ...built, media_type: 'application/json' })).toBe(false);
    expect(ok(SolverFieldObjectSchema, { ...failed, encoding: 'br' })).toBe(false);
    const { file: _f, ...noFile } = built;
    expect(ok(SolverFieldBuiltSchema, noFile)).toBe(false);
    expect(ok(SolverFieldFailedSchema, { ...failed, error: '' })).toBe(false);
    expect(ok(FieldRangeSchema, { min: 0 })).toBe(false);
  });
});

describe('mesh convergence', () => {
  const points = [
    { element_size_mm: 4, max_von_mises_mpa: 584.1, element_count: 348 },
    { element_size_mm: 2, max_von_mises_mpa: 593.2 },
  ];
  it('accepts points, the record and the tool input', () => {
    expect(ok(MeshConvergencePointSchema, points[0])).toBe(true);
    expect(
      ok(MeshConvergenceChangeSchema, { from_element_size_mm: 4, to_element_size_mm: 2, percent_change: 1.56 }),
    ).toBe(true);
    const record = {
      points,
      changes: [{ from_element_size_mm: 4, to_element_size_mm: 2, percent_change: 1.56 }],
      converged: true,
      recommendation: 'use 2 mm',
    };
    expect(MeshConvergenceRecordSchema.parse(record)).toEqual(record);
    expect(CheckMeshConvergenceInputSchema.parse({ points })).toEqual({ points });
  });
  it('rejects a non-positive size, a fractional element count, a string converged and a single point', () => {
    expect(ok(MeshConvergencePointSchema, { element_size_mm: 0, max_von_mises_mpa: 1 })).toBe(false);
    expect(ok(MeshConvergencePointSchema, { element_size_mm: 1, max_von_mises_mpa: 1, element_count: 2.5 })).toBe(
      false,
    );
    expect(ok(MeshConvergenceChangeSchema, { from_element_size_mm: 4, to_element_size_mm: 2 })).toBe(false);
    expect(ok(MeshConvergenceRecordSchema, { points, changes: [], converged: 'yes', recommendation: '' })).toBe(false);
    expect(ok(CheckMeshConvergenceInputSchema, { points: [points[0]] })).toBe(false);
  });
});
