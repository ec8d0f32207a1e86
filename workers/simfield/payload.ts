import zlib from 'node:zlib';
import { clusterVertices } from './decimate.ts';
import { roundSig } from './numbers.ts';
import { surfaceArea, type SurfaceMesh } from './surface-mesh.ts';

/** Digits kept: 4 significant for values and displacement (SPEC rule 10); 6 for positions (what the `.frd` holds). */
const VALUE_DIGITS = 4;
const POSITION_DIGITS = 6;
/** gzip level and header are fixed (Node writes mtime 0), so equal payloads have equal bytes and SHA-256. */
const GZIP = { level: 6 } as const;
const MAX_PASSES = 40;

/** Fixture and load markers as the spec shapes them. */
export type Marker =
  | {
      kind: 'fixture';
      label: string;
      position: [number, number, number];
      bbox: { min: [number, number, number]; max: [number, number, number] };
    }
  | { kind: 'load'; label: string; position: [number, number, number]; vector: [number, number, number]; unit: string };

/** Everything besides the surface that goes into a payload. */
export interface PayloadFrame {
  analysisType: string;
  markers: Marker[];
  bbox: { min: [number, number, number]; max: [number, number, number] };
}

/** A gzipped payload that fits the cap, and how it got there. */
export interface FittedPayload {
  gz: Buffer;
  vertexCount: number;
  triangleCount: number;
  sourceTriangleCount: number;
  decimated: boolean;
  cellSize: number | null;
  passes: number;
}

const rounded = (a: Float64Array, d: number): number[] => {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = roundSig(a[i], d);
  return out;
};
const r3 = (v: [number, number, number], d = POSITION_DIGITS) =>
  v.map((x) => roundSig(x, d)) as [number, number, number];

/** The `service.sim_field` v1 JSON of a surface mesh (key order as the spec's table). */
export function encodePayload(
  m: SurfaceMesh,
  frame: PayloadFrame,
  decimation: { applied: boolean; source_triangle_count: number; cell_size_mm: number | null },
): string {
  const fields: Record<string, unknown> = {};
  for (const f of m.fields) {
    fields[f.key] = {
      label: f.label,
      unit: f.unit,
      values: rounded(f.values, VALUE_DIGITS),
      min: roundSig(f.min, VALUE_DIGITS),
      max: roundSig(f.max, VALUE_DIGITS),
      peak: { position: r3(f.peak.position), value: roundSig(f.peak.value, VALUE_DIGITS) },
    };
  }
  return JSON.stringify({
    format: 'service.sim_field',
    version: 1,
    analysis_type: frame.analysisType,
    units: { length: 'mm', stress: 'MPa', displacement: 'mm', temperature: 'C' },
    positions: rounded(m.positions, POSITION_DIGITS),
    indices: Array.from(m.tris),
    displacement: m.displacement ? rounded(m.displacement, VALUE_DIGITS) : [],
    fields,
    markers: frame.markers.map((k) =>
      k.kind === 'fixture'
        ? { ...k, position: r3(k.position), bbox: { min: r3(k.bbox.min), max: r3(k.bbox.max) } }
        : { ...k, position: r3(k.position), vector: r3(k.vector, VALUE_DIGITS) },
    ),
    bbox: { min: r3(frame.bbox.min), max: r3(frame.bbox.max) },
    decimation,
  });
}

/** Deterministic gzip of a payload's JSON. */
export function gzipPayload(json: string): Buffer {
  return zlib.gzipSync(Buffer.from(json, 'utf8'), GZIP);
}

/**
 * Encodes the surface; when the gzip bytes exceed `capBytes`, clusters vertices on a growing grid until they fit
 * (first cell √(area / target), target = vertices × cap / bytes × 0.9; then × max(1.05, √(bytes/cap) × 1.02) per pass).
 * Throws when no grid makes it fit (the frame alone is over the cap).
 */
export function fitPayload(m: SurfaceMesh, frame: PayloadFrame, capBytes: number): FittedPayload {
  const source = m.tris.length / 3;
  let gz = gzipPayload(encodePayload(m, frame, { applied: false, source_triangle_count: source, cell_size_mm: null }));
  const base = { sourceTriangleCount: source, vertexCount: m.positions.length / 3, triangleCount: source };
  if (gz.length <= capBytes) return { gz, ...base, decimated: false, cellSize: null, passes: 0 };
  const V = m.positions.length / 3;
  const target = Math.max(4, (V * capBytes) / gz.length) * 0.9;
  let cell = Math.sqrt(surfaceArea(m) / target);
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    const d = clusterVertices(m, cell);
    const cellSize = roundSig(cell, VALUE_DIGITS);
    gz = gzipPayload(encodePayload(d, frame, { applied: true, source_triangle_count: source, cell_size_mm: cellSize }));
    if (gz.length <= capBytes) {
      return {
        gz,
        sourceTriangleCount: source,
        vertexCount: d.positions.length / 3,
        triangleCount: d.tris.length / 3,
        decimated: true,
        cellSize,
        passes: pass,
      };
    }
    if (d.tris.length === 0) break;
    cell *= Math.max(1.05, Math.sqrt(gz.length / capBytes) * 1.02);
  }
  throw new Error(
    `the field payload does not fit the ${capBytes}-byte cap even after simplifying the surface (${gz.length} bytes at the coarsest grid)`,
  );
}
