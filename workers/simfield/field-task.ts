import fs from 'node:fs';
import { FRD_TYPES, parseFrd, readBlock, type FrdFile } from './frd-parse.ts';
import { fitPayload, type Marker } from './payload.ts';
import { boundsOf, magnitude, meanOver, statsOf, usedNodes, vector3, vonMises } from './quantities.ts';
import type { BuildFieldInput, TaskFailure } from './schemas.ts';
import { selectBlocks, detectAnalysis, type AnalysisType } from './select.ts';
import { toSurfaceMesh, type NodalData, type SurfaceField } from './surface-mesh.ts';
import { outerSurface } from './surface.ts';

type Vec3 = [number, number, number];
type Peak = { value: number; node: number; position: Vec3 };

/** What the `.frd` says, from the full nodal field (the solve's numbers; never from the simplified surface). */
export interface FrdSummary {
  analysis_type: AnalysisType;
  nodes: number;
  elements: number;
  element_types: Record<string, number>;
  blocks: string[];
  step: number;
  bbox: { min: Vec3; max: Vec3 };
  von_mises?: { min: number; max: number; peak: Peak; by_body: Record<string, number> };
  displacement?: { max: number; peak: Peak };
  temperature?: { min: number; max: number; peak: Peak; min_at: Peak };
  modes?: { mode: number; frequency_hz: number }[];
  probes: Record<string, { nodes: number; mean_displacement?: Vec3; mean_temperature?: number }>;
}

/** The field payload built (bytes moved back to the caller), or why not. */
export type FieldOutcome =
  | {
      ok: true;
      gz: Uint8Array;
      vertexCount: number;
      triangleCount: number;
      sourceTriangleCount: number;
      decimated: boolean;
      cellSize: number | null;
      passes: number;
      ranges: Record<string, { min: number; max: number }>;
    }
  | { ok: false; error: string };

/** Result of `buildField`: the summary always (or a failure that fails the solve), the field built or its error. */
export type BuildFieldResult =
  { ok: true; summary: FrdSummary; field: FieldOutcome; timings: Record<string, number> } | TaskFailure;

const isVolume = (code: number) => FRD_TYPES[code]?.volume === true;

/**
 * Reads a solved `.frd`, summarises it from the full nodal field, and builds the `service.sim_field` payload (SPEC
 * rule 10). A `.frd` that cannot be read fails the task (the solve failed); a payload that cannot be built only sets
 * `field.error` (the solve stands).
 */
export function buildField(
  input: Required<Omit<BuildFieldInput, 'analysisType'>> & { analysisType?: AnalysisType },
): BuildFieldResult {
  const timings: Record<string, number> = {};
  let t0 = performance.now();
  const lap = (name: string) => {
    const t = performance.now();
    timings[name] = t - t0;
    t0 = t;
  };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(input.frdPath);
  } catch (err) {
    return {
      ok: false,
      kind: 'tool_error',
      message: `the solver wrote no result file ${input.frdPath} (${(err as NodeJS.ErrnoException).code})`,
    };
  }
  lap('read');
  let f: FrdFile;
  let summary: FrdSummary;
  let nodal: NodalData;
  try {
    f = parseFrd(bytes);
    lap('parse');
    ({ summary, nodal } = summarise(bytes, f, input));
    lap('quantities');
  } catch (err) {
    return { ok: false, kind: 'tool_error', message: (err as Error).message };
  }
  let field: FieldOutcome;
  try {
    const tris = outerSurface({ types: f.elemTypes, offsets: f.elemOffsets, nodes: f.elemNodes }, f.coords).tris;
    if (tris.length === 0) throw new Error('the mesh has no volume elements, so no outer surface');
    const mesh = toSurfaceMesh(tris, nodal);
    lap('surface');
    const markers = markersOf(f, input);
    const fit = fitPayload(mesh, { analysisType: summary.analysis_type, markers, bbox: summary.bbox }, input.capBytes);
    lap('payload');
    if (input.outPath) fs.writeFileSync(input.outPath, fit.gz);
    const ranges = Object.fromEntries(nodal.fields.map((q) => [q.key, { min: q.min, max: q.max }]));
    field = { ok: true, ...fit, gz: new Uint8Array(fit.gz.buffer, fit.gz.byteOffset, fit.gz.length), ranges };
  } catch (err) {
    field = { ok: false, error: `the result field could not be built: ${(err as Error).message}` };
  }
  return { ok: true, summary, field, timings };
}

const at = (f: FrdFile, i: number): Vec3 => [f.coords[3 * i], f.coords[3 * i + 1], f.coords[3 * i + 2]];
const peakOf = (f: FrdFile, i: number, value: number): Peak => ({ value, node: f.nodeIds[i], position: at(f, i) });

function summarise(
  bytes: Buffer,
  f: FrdFile,
  input: Parameters<typeof buildField>[0],
): { summary: FrdSummary; nodal: NodalData } {
  const analysis = input.analysisType ?? detectAnalysis(f);
  const sel = selectBlocks(f, analysis);
  const used = usedNodes(f, isVolume);
  const element_types: Record<string, number> = {};
  for (const t of f.elemTypes) element_types[FRD_TYPES[t].name] = (element_types[FRD_TYPES[t].name] ?? 0) + 1;
  const summary: FrdSummary = {
    analysis_type: analysis,
    nodes: f.nodeIds.length,
    elements: f.elemTypes.length,
    element_types,
    blocks: f.blocks.map((b) => (b.mode !== null ? `${b.name}(mode ${b.mode})` : `${b.name}(step ${b.step})`)),
    step: sel.step,
    bbox: boundsOf(f.coords, null, used),
    probes: {},
  };
  const nodal: NodalData = { coords: f.coords, displacement: null, fields: [] };
  const probeIdx = input.probes.map((p) => ({ name: p.name, idx: indicesOf(f, p.nodeIds, p.name) }));
  for (const p of probeIdx) summary.probes[p.name] = { nodes: p.idx.length };
  if (sel.stress) {
    const vm = vonMises(readBlock(bytes, f, sel.stress), sel.stress);
    const s = statsOf(vm, used, f.nodeIds, 'von Mises stress');
    summary.von_mises = {
      min: s.min,
      max: s.max,
      peak: peakOf(f, s.peak, s.max),
      by_body: byBody(f, vm, input.bodies),
    };
    nodal.fields.push({
      key: 'von_mises',
      label: 'von Mises stress',
      unit: 'MPa',
      values: vm,
      min: s.min,
      max: s.max,
      peak: { position: at(f, s.peak), value: s.max },
    });
  }
  if (sel.disp) {
    const u = vector3(readBlock(bytes, f, sel.disp), sel.disp);
    const mag = magnitude(u);
    const s = statsOf(mag, used, f.nodeIds, 'displacement');
    summary.displacement = { max: s.max, peak: peakOf(f, s.peak, s.max) };
    nodal.displacement = u;
    const label =
      analysis === 'modal'
        ? `Mode ${sel.disp.mode ?? 1} shape, mass-normalized (${Number(sel.disp.value.toPrecision(5))} Hz)`
        : 'Displacement magnitude';
    const field: SurfaceField & { values: Float64Array } = {
      key: 'displacement_magnitude',
      label,
      unit: 'mm',
      values: mag,
      min: s.min,
      max: s.max,
      peak: { position: at(f, s.peak), value: s.max },
    };
    nodal.fields.push(field);
    for (const p of probeIdx) summary.probes[p.name].mean_displacement = meanOver(u, p.idx) ?? undefined;
  }
  if (sel.temp) {
    const temp = readBlock(bytes, f, sel.temp);
    const nc = sel.temp.components.length;
    const T = nc === 1 ? temp : temp.filter((_, i) => i % nc === 0);
    const s = statsOf(T, used, f.nodeIds, 'temperature');
    let minAt = 0;
    while (minAt < T.length && !(used[minAt] && T[minAt] === s.min)) minAt++;
    summary.temperature = { min: s.min, max: s.max, peak: peakOf(f, s.peak, s.max), min_at: peakOf(f, minAt, s.min) };
    nodal.fields.push({
      key: 'temperature',
      label: 'Temperature',
      unit: 'C',
      values: T,
      min: s.min,
      max: s.max,
      peak: { position: at(f, s.peak), value: s.max },
    });
    for (const p of probeIdx)
      summary.probes[p.name].mean_temperature = p.idx.length
        ? p.idx.reduce((a, i) => a + T[i], 0) / p.idx.length
        : undefined;
  }
  if (analysis === 'modal') summary.modes = sel.modes;
  return { summary, nodal };
}

function indicesOf(f: FrdFile, ids: Int32Array, name: string): Int32Array {
  const out = new Int32Array(ids.length);
  for (let k = 0; k < ids.length; k++) {
    const i = f.indexOf(ids[k]);
    if (i < 0)
      throw new Error(
        `node set ${name} names node ${ids[k]}, which the .frd does not have (mesh and result do not match)`,
      );
    out[k] = i;
  }
  return out;
}

function byBody(
  f: FrdFile,
  vm: Float64Array,
  bodies: { name: string; elementIds: Int32Array }[],
): Record<string, number> {
  const out: Record<string, number> = {};
  if (!bodies.length) return out;
  const index = new Map<number, number>();
  for (let e = 0; e < f.elemIds.length; e++) index.set(f.elemIds[e], e);
  for (const b of bodies) {
    let max = -Infinity;
    for (const id of b.elementIds) {
      const e = index.get(id);
      if (e === undefined) continue;
      for (let k = f.elemOffsets[e]; k < f.elemOffsets[e + 1]; k++) max = Math.max(max, vm[f.elemNodes[k]]);
    }
    if (max > -Infinity) out[b.name] = max;
  }
  return out;
}

function markersOf(f: FrdFile, input: Parameters<typeof buildField>[0]): Marker[] {
  const centre = (b: { min: Vec3; max: Vec3 }, idx: Int32Array): Vec3 => {
    const s: Vec3 = [0, 0, 0];
    for (const i of idx) for (let k = 0; k < 3; k++) s[k] += f.coords[3 * i + k];
    return idx.length ? (s.map((v) => v / idx.length) as Vec3) : b.min;
  };
  const out: Marker[] = [];
  for (const fx of input.fixtures) {
    const idx = indicesOf(f, fx.nodeIds, fx.label);
    if (!idx.length) continue;
    const bbox = boundsOf(f.coords, idx);
    out.push({ kind: 'fixture', label: fx.label, position: centre(bbox, idx), bbox });
  }
  for (const l of input.loads) {
    const idx = indicesOf(f, l.nodeIds, l.label);
    if (!idx.length) continue;
    out.push({
      kind: 'load',
      label: l.label,
      position: centre(boundsOf(f.coords, idx), idx),
      vector: l.vector,
      unit: l.unit,
    });
  }
  return out;
}
