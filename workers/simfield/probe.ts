import fs from 'node:fs';
import { FRD_TYPES, parseFrd, readBlock, type FrdFile } from './frd-parse.ts';
import { usedNodes, vector3 } from './quantities.ts';
import type { ProbeInput, TaskFailure } from './schemas.ts';
import { detectAnalysis, selectBlocks, type AnalysisType } from './select.ts';

/** What a solved cantilever says at the points beam theory predicts (for the analytical cross-checks). */
export interface Probe {
  ok: true;
  analysis_type: AnalysisType;
  length_mm: number;
  /** Static: mean displacement along the load axis of the free-end nodes (the tip deflection, signed). */
  tip_deflection_mm?: number;
  tip_nodes?: number;
  /** Static: axial stress on the two bending fibres at the station, from a line fitted to the fibre's nodes nearby. */
  station_mm?: number;
  top_fibre_stress_mpa?: number;
  bottom_fibre_stress_mpa?: number;
  fit_points?: number;
  frequencies_hz?: number[];
  temperature?: { min: number; max: number; free_end_mean: number };
}

const AXES = { x: 0, y: 1, z: 2 } as const;

/**
 * Reads a solved beam (along `axis`, clamped at its low end, loaded along `loadAxis`): tip deflection, bending-fibre
 * stress at a station (linear fit over nodes within 5 % of the length), frequencies, temperatures.
 */
export function probeFrd(input: Required<ProbeInput>): Probe | TaskFailure {
  let bytes: Buffer;
  let f: FrdFile;
  try {
    bytes = fs.readFileSync(input.frdPath);
  } catch (err) {
    return {
      ok: false,
      kind: 'invalid_arguments',
      message: `frd_path cannot be read: ${(err as NodeJS.ErrnoException).code}`,
    };
  }
  try {
    f = parseFrd(bytes);
    const analysis = detectAnalysis(f);
    const sel = selectBlocks(f, analysis);
    const a = AXES[input.axis];
    const l = AXES[input.loadAxis];
    const used = usedNodes(f, (c) => FRD_TYPES[c]?.volume === true);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < f.nodeIds.length; i++) {
      if (!used[i]) continue;
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], f.coords[3 * i + k]);
        hi[k] = Math.max(hi[k], f.coords[3 * i + k]);
      }
    }
    const length = hi[a] - lo[a];
    const tol = 1e-6 * Math.max(...hi.map((h, k) => h - lo[k])) + 1e-9;
    const near = (i: number, k: number, v: number) => used[i] && Math.abs(f.coords[3 * i + k] - v) <= tol;
    const out: Probe = { ok: true, analysis_type: analysis, length_mm: length };
    if (analysis === 'modal') out.frequencies_hz = sel.modes.map((m) => m.frequency_hz);
    if (analysis === 'static_stress' && sel.disp) {
      const u = vector3(readBlock(bytes, f, sel.disp), sel.disp);
      let sum = 0;
      let n = 0;
      for (let i = 0; i < f.nodeIds.length; i++) if (near(i, a, hi[a])) ((sum += u[3 * i + l]), n++);
      out.tip_deflection_mm = n ? sum / n : undefined;
      out.tip_nodes = n;
    }
    if (analysis === 'static_stress' && sel.stress) {
      const station = input.stationMm ?? lo[a] + length / 4;
      const name = `S${'XYZ'[a]}${'XYZ'[a]}`;
      const comp = sel.stress.components.indexOf(name);
      const s = readBlock(bytes, f, sel.stress);
      const nc = sel.stress.components.length;
      const fit = (fibre: number) => {
        const xs: number[] = [];
        const ys: number[] = [];
        for (let i = 0; i < f.nodeIds.length; i++) {
          if (!near(i, l, fibre) || Math.abs(f.coords[3 * i + a] - station) > 0.05 * length) continue;
          xs.push(f.coords[3 * i + a]);
          ys.push(s[i * nc + comp]);
        }
        return { value: lineAt(xs, ys, station), points: xs.length };
      };
      const top = fit(hi[l]);
      const bottom = fit(lo[l]);
      Object.assign(out, {
        station_mm: station,
        top_fibre_stress_mpa: top.value,
        bottom_fibre_stress_mpa: bottom.value,
        fit_points: top.points + bottom.points,
      });
    }
    if (analysis === 'thermal' && sel.temp) {
      const t = readBlock(bytes, f, sel.temp);
      const nc = sel.temp.components.length;
      let min = Infinity;
      let max = -Infinity;
      let end = 0;
      let n = 0;
      for (let i = 0; i < f.nodeIds.length; i++) {
        if (!used[i]) continue;
        const v = t[i * nc];
        min = Math.min(min, v);
        max = Math.max(max, v);
        if (near(i, a, hi[a])) ((end += v), n++);
      }
      out.temperature = { min, max, free_end_mean: n ? end / n : NaN };
    }
    return out;
  } catch (err) {
    return { ok: false, kind: 'tool_error', message: (err as Error).message };
  }
}

/** Least-squares line through (xs, ys) evaluated at x; the mean when x does not vary; undefined without points. */
function lineAt(xs: number[], ys: number[], x: number): number | undefined {
  const n = xs.length;
  if (!n) return undefined;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let k = 0; k < n; k++) {
    sxy += (xs[k] - mx) * (ys[k] - my);
    sxx += (xs[k] - mx) ** 2;
  }
  return sxx > 0 ? my + (sxy / sxx) * (x - mx) : my;
}
