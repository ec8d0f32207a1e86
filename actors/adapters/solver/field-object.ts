import crypto from 'node:crypto';
import client from 'prom-client';
import { getOrCreate } from '../../../brokers/metrics.ts';
import { SIM_FIELD_FORMAT, SIM_FIELD_MEDIA_TYPE, type SolverFieldObject } from '../../../contracts/simulation.ts';
import type { FieldOutcome } from '../../../workers/simfield/field-task.ts';

/** The sim-field metrics of SPEC "Observability signals", registered once on the process registry. */
export interface FieldMetrics {
  total: client.Counter<'analysis_type' | 'outcome'>;
  bytes: client.Histogram<'analysis_type'>;
}

/** `service_sim_field_payload_total{analysis_type,outcome}` (built, decimated, failed) and `service_sim_field_payload_bytes{analysis_type}`. */
export function fieldMetrics(registry: client.Registry): FieldMetrics {
  const total = getOrCreate(
    registry,
    'service_sim_field_payload_total',
    () =>
      new client.Counter({
        name: 'service_sim_field_payload_total',
        help: 'Result field payloads built by the solver, by outcome (built, decimated, failed)',
        labelNames: ['analysis_type', 'outcome'] as const,
        registers: [registry],
      }),
  ) as client.Counter<'analysis_type' | 'outcome'>;
  const bytes = getOrCreate(
    registry,
    'service_sim_field_payload_bytes',
    () =>
      new client.Histogram({
        name: 'service_sim_field_payload_bytes',
        help: 'Compressed size of result field payloads',
        labelNames: ['analysis_type'] as const,
        buckets: [4096, 16_384, 65_536, 262_144, 524_288, 1_048_576, 1_572_864, 4_194_304],
        registers: [registry],
      }),
  ) as client.Histogram<'analysis_type'>;
  return { total, bytes };
}

/**
 * The solver field object (SPEC "Solver field object") of a built payload: its workspace file, the same bytes inline,
 * counts and ranges; plus `sha256` (the stable ETag: gzip bytes are deterministic) and `size_bytes`. A payload that
 * could not be built gives the object with `error` only; the solve still succeeds.
 */
export function fieldObject(
  outcome: FieldOutcome,
  file: string,
  analysisType: string,
  metrics: FieldMetrics,
): SolverFieldObject & Record<string, unknown> {
  const head = { format: SIM_FIELD_FORMAT, media_type: SIM_FIELD_MEDIA_TYPE, encoding: 'gzip' } as const;
  if (!outcome.ok) {
    metrics.total.inc({ analysis_type: analysisType, outcome: 'failed' });
    return { ...head, error: outcome.error };
  }
  const gz = Buffer.from(outcome.gz.buffer, outcome.gz.byteOffset, outcome.gz.byteLength);
  metrics.total.inc({ analysis_type: analysisType, outcome: outcome.decimated ? 'decimated' : 'built' });
  metrics.bytes.observe({ analysis_type: analysisType }, gz.length);
  return {
    file,
    base64: gz.toString('base64'),
    ...head,
    quantities: Object.keys(outcome.ranges) as ('von_mises' | 'displacement_magnitude' | 'temperature')[],
    ranges: outcome.ranges,
    vertex_count: outcome.vertexCount,
    triangle_count: outcome.triangleCount,
    decimated: outcome.decimated,
    source_triangle_count: outcome.sourceTriangleCount,
    cell_size_mm: outcome.cellSize,
    size_bytes: gz.length,
    sha256: crypto.createHash('sha256').update(gz).digest('hex'),
  };
}
