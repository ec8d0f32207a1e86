import type { VectorSummary, Waveform } from './circuit.schemas.ts';
import type { RawPlot, RawVariable } from './raw-file.ts';

/** Magnitudes at or below this (1e-20, i.e. −400 dB) report −400 dB, so an exact zero stays a finite JSON number. */
const DB_FLOOR = -400;

/** Indices of at most `max` points out of `n`, evenly spread by index, first and last always kept. */
export function decimationIndices(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, k) => k);
  const out: number[] = [];
  for (let k = 0; k < max; k++) {
    const idx = Math.round((k * (n - 1)) / (max - 1));
    if (out.at(-1) !== idx) out.push(idx);
  }
  return out;
}

/** 20·log10|z| with a floor of −400 dB. */
export const magnitudeDb = (re: number, im: number) => Math.max(DB_FLOOR, 20 * Math.log10(Math.hypot(re, im)));

/** Phase in degrees along the sweep, unwrapped (no jumps over 180°), so a Bode plot and its min/max stay continuous. */
export function unwrappedPhaseDeg(re: Float64Array, im: Float64Array): Float64Array {
  const out = new Float64Array(re.length);
  let offset = 0;
  for (let k = 0; k < re.length; k++) {
    const p = (Math.atan2(im[k], re[k]) * 180) / Math.PI;
    if (k > 0) {
      const prev = out[k - 1] - offset;
      if (p - prev > 180) offset -= 360;
      else if (p - prev < -180) offset += 360;
    }
    out[k] = p + offset;
  }
  return out;
}

function stat(values: Float64Array) {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { final: values[values.length - 1], min, max };
}

/** The plot's scale (variable 0), or null for an Operating Point plot, which has none. */
export const scaleOf = (plot: RawPlot): RawVariable | null =>
  plot.plotname === 'Operating Point' || plot.variables.length === 0 ? null : plot.variables[0];

/**
 * Picks the vectors a caller asked for (`probes`, default every vector but the scale). A probe matches a vector name
 * case-insensitively; a bare node name `out` also matches `v(out)`. Unknown probes are returned in `unknown`.
 */
export function selectVectors(
  plot: RawPlot,
  probes: string[] | undefined,
): { picked: RawVariable[]; unknown: string[]; available: string[] } {
  const scale = scaleOf(plot);
  const candidates = plot.variables.filter((v) => v !== scale);
  const available = candidates.map((v) => v.name);
  if (!probes?.length) return { picked: candidates, unknown: [], available };
  const picked: RawVariable[] = [];
  const unknown: string[] = [];
  for (const probe of probes) {
    const p = probe.trim().toLowerCase();
    const hit = candidates.find((v) => v.name === p) ?? candidates.find((v) => v.name === `v(${p})`);
    if (!hit) unknown.push(probe);
    else if (!picked.includes(hit)) picked.push(hit);
  }
  return { picked, unknown, available };
}

/** Names of picked vectors holding NaN or infinite values (a numerical failure, not a result). */
export function nonFiniteVectors(plot: RawPlot, picked: RawVariable[]): string[] {
  const bad = (a: Float64Array | undefined) => !!a && a.some((v) => !Number.isFinite(v));
  return picked.filter((v) => bad(plot.real[v.index]) || bad(plot.imag?.[v.index])).map((v) => v.name);
}

const round = (v: number) => (v === 0 ? 0 : Number(v.toPrecision(7)));

/**
 * Per-vector summaries over every point (final = last point, min, max; AC: of magnitude in dB and phase in degrees) and
 * the waveforms decimated to `maxPoints` (7 significant digits), keyed by the plot's scale. An OP plot has no waveform.
 */
export function summarise(
  plot: RawPlot,
  picked: RawVariable[],
  maxPoints: number,
): { vectors: Record<string, VectorSummary>; waveform: Waveform | null } {
  const vectors: Record<string, VectorSummary> = {};
  const scale = scaleOf(plot);
  const idx = decimationIndices(plot.points, maxPoints);
  const pick = (a: Float64Array) => idx.map((k) => round(a[k]));
  const series: Waveform['series'] = {};
  for (const v of picked) {
    const re = plot.real[v.index];
    if (plot.complex && plot.imag) {
      const im = plot.imag[v.index];
      const db = re.map((r, k) => magnitudeDb(r, im[k]));
      const ph = unwrappedPhaseDeg(re, im);
      vectors[v.name] = { type: v.type, magnitude_db: stat(db), phase_deg: stat(ph) };
      series[v.name] = { magnitude_db: pick(db), phase_deg: pick(ph) };
    } else {
      vectors[v.name] = { type: v.type, ...stat(re) };
      series[v.name] = pick(re);
    }
  }
  if (!scale) return { vectors, waveform: null };
  // The AC scale is written complex and its imaginary part is garbage (notes/solver.md): the real part is the frequency.
  const waveform: Waveform = {
    scale: scale.name,
    scale_type: scale.type,
    x: pick(plot.real[scale.index]),
    series,
    points: idx.length,
    source_points: plot.points,
    decimated: idx.length < plot.points,
  };
  return { vectors, waveform };
}
