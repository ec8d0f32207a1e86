/**
 * A result's field payload (`service.sim_field` v1, SPEC "Result field payload") fetched from
 * `GET /v1/simulation/results/{id}/field` and turned into typed arrays once: no per-vertex objects. The gateway sends
 * the stored gzip bytes with `Content-Encoding: gzip`, which the browser decodes itself; bytes that still start with
 * the gzip magic (a route answering `application/gzip`) are decompressed here with DecompressionStream. No three.js
 * here: the list page uses it without loading the viewer. Marks `field-received` and `field-decoded` (bench:dashboard).
 */
import type {
  SimFieldMarker,
  SimFieldPayload,
  SimFieldQuantity,
  SimFieldUnits,
} from '../../../contracts/simulation.ts';
import { ApiError, request } from '../api/gateway.ts';

export interface ScalarField {
  name: SimFieldQuantity;
  label: string;
  unit: string;
  values: Float32Array;
  min: number;
  max: number;
  peak: { position: [number, number, number]; value: number };
}

export interface FieldData {
  analysisType: string;
  units: SimFieldUnits;
  positions: Float32Array;
  indices: Uint32Array;
  /** dx,dy,dz per vertex; empty for a thermal field. */
  displacement: Float32Array;
  /** Largest displacement length over the vertices (0 without displacement). */
  maxDisplacement: number;
  fields: ScalarField[];
  markers: SimFieldMarker[];
  bbox: { min: [number, number, number]; max: [number, number, number] };
  decimation: SimFieldPayload['decimation'];
  vertexCount: number;
  triangleCount: number;
  /** Body bytes as fetch gave them (already gunzipped when sent with Content-Encoding: gzip) and the JSON length. */
  bytes: number;
  jsonChars: number;
}

/** The order a viewer offers the quantities in: stress first, then displacement, then temperature. */
export const QUANTITY_ORDER: SimFieldQuantity[] = ['von_mises', 'displacement_magnitude', 'temperature'];

/** Fetches and decodes one result's field; a result without a field is an ApiError 404 `field not stored`. */
export async function fetchField(resultId: string, signal?: AbortSignal): Promise<FieldData> {
  const res = await request(`/v1/simulation/results/${encodeURIComponent(resultId)}/field`, {
    headers: { accept: 'application/vnd.service.sim-field+json, application/json' },
    signal,
  });
  const raw = new Uint8Array(await res.arrayBuffer());
  performance.mark('field-received');
  const text = await decodeText(raw);
  let payload: SimFieldPayload;
  try {
    payload = JSON.parse(text) as SimFieldPayload;
  } catch {
    throw new ApiError(res.status, 'BAD_PAYLOAD', 'the field payload is not JSON');
  }
  if (payload.format !== 'service.sim_field' || payload.version !== 1)
    throw new ApiError(res.status, 'BAD_PAYLOAD', `unknown field format ${String(payload.format)} v${payload.version}`);
  const data = toFieldData(payload, raw.byteLength, text.length);
  performance.mark('field-decoded');
  return data;
}

/** UTF-8 text of the body, gunzipped here when the bytes are still gzip (magic 1f 8b). */
export async function decodeText(raw: Uint8Array): Promise<string> {
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    const stream = new Blob([raw as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text();
  }
  return new TextDecoder().decode(raw);
}

export function toFieldData(p: SimFieldPayload, bytes: number, jsonChars: number): FieldData {
  const displacement = new Float32Array(p.displacement);
  let max2 = 0;
  for (let i = 0; i < displacement.length; i += 3) {
    const d2 = displacement[i] ** 2 + displacement[i + 1] ** 2 + displacement[i + 2] ** 2;
    if (d2 > max2) max2 = d2;
  }
  const fields: ScalarField[] = [];
  for (const name of QUANTITY_ORDER) {
    const f = p.fields[name];
    if (!f) continue;
    fields.push({
      name,
      label: f.label,
      unit: f.unit,
      values: new Float32Array(f.values),
      min: f.min,
      max: f.max,
      peak: f.peak,
    });
  }
  return {
    analysisType: p.analysis_type,
    units: p.units,
    positions: new Float32Array(p.positions),
    indices: new Uint32Array(p.indices),
    displacement,
    maxDisplacement: Math.sqrt(max2),
    fields,
    markers: p.markers,
    bbox: p.bbox,
    decimation: p.decimation,
    vertexCount: p.positions.length / 3,
    triangleCount: p.indices.length / 3,
    bytes,
    jsonChars,
  };
}

/** Largest extent of the part's box (mm): the size the initial deformation scale is measured against. */
export function partSize(f: FieldData): number {
  const { min, max } = f.bbox;
  return Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1;
}

/** The scale that makes the largest deflection about 5 % of the part size (0 without displacement). */
export function initialScale(f: FieldData): number {
  if (!f.maxDisplacement) return 0;
  return niceNumber((0.05 * partSize(f)) / f.maxDisplacement);
}

/** A round number near x (1, 2 or 5 times a power of ten, or the value to two digits when closer). */
export function niceNumber(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 0;
  return Number(x.toPrecision(2));
}

/** A number for a person: four significant digits, no exponent for everyday sizes. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(3);
  return String(Number(x.toPrecision(4)));
}
