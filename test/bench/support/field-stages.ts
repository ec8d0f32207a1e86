import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FRD_TYPES, parseFrd, readBlock } from '../../../workers/simfield/frd-parse.ts';
import { fitPayload } from '../../../workers/simfield/payload.ts';
import { boundsOf, magnitude, statsOf, usedNodes, vector3, vonMises } from '../../../workers/simfield/quantities.ts';
import { selectBlocks } from '../../../workers/simfield/select.ts';
import { toSurfaceMesh } from '../../../workers/simfield/surface-mesh.ts';
import { outerSurface } from '../../../workers/simfield/surface.ts';

/** One stage: wall time, CPU time (user + system: what the wall would be on an idle core), RSS after it, peak RSS so far (MB). */
export interface Stage {
  stage: string;
  ms: number;
  cpu_ms: number;
  rss_mb: number;
  peak_rss_mb: number;
}

const mb = (b: number) => Math.round(b / 1e5) / 10;

/**
 * The file-to-payload path of the `buildField` worker task, stage by stage, in this (fresh) process: read, parse
 * (nodes, elements, block directory), result blocks, von Mises and magnitudes with their ranges, outer surface,
 * payload (JSON + gzip, decimated when over the cap). Returns the stages and what came out.
 */
export function measureStages(frdPath: string, capBytes: number) {
  const stages: Stage[] = [];
  const baseline = mb(process.memoryUsage().rss);
  let t = performance.now();
  let cpu = process.cpuUsage();
  const mark = (stage: string) => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    stages.push({
      stage,
      ms: Math.round((now - t) * 10) / 10,
      cpu_ms: Math.round((used.user + used.system) / 100) / 10,
      rss_mb: mb(process.memoryUsage().rss),
      peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    });
    t = performance.now();
    cpu = process.cpuUsage();
  };
  const bytes = fs.readFileSync(frdPath);
  mark('read');
  const f = parseFrd(bytes);
  mark('parse nodes + elements');
  const sel = selectBlocks(f, 'static_stress');
  const disp = vector3(readBlock(bytes, f, sel.disp!), sel.disp!);
  const stress = readBlock(bytes, f, sel.stress!);
  mark('result blocks (DISP, STRESS)');
  const used = usedNodes(f, (c) => FRD_TYPES[c]?.volume === true);
  const vm = vonMises(stress, sel.stress!);
  const mag = magnitude(disp);
  const s1 = statsOf(vm, used, f.nodeIds, 'von Mises');
  const s2 = statsOf(mag, used, f.nodeIds, 'displacement');
  mark('von Mises, |u|, ranges');
  const tris = outerSurface({ types: f.elemTypes, offsets: f.elemOffsets, nodes: f.elemNodes }, f.coords).tris;
  const at = (i: number): [number, number, number] => [f.coords[3 * i], f.coords[3 * i + 1], f.coords[3 * i + 2]];
  const mesh = toSurfaceMesh(tris, {
    coords: f.coords,
    displacement: disp,
    fields: [
      {
        key: 'von_mises',
        label: 'von Mises stress',
        unit: 'MPa',
        values: vm,
        min: s1.min,
        max: s1.max,
        peak: { position: at(s1.peak), value: s1.max },
      },
      {
        key: 'displacement_magnitude',
        label: 'Displacement magnitude',
        unit: 'mm',
        values: mag,
        min: s2.min,
        max: s2.max,
        peak: { position: at(s2.peak), value: s2.max },
      },
    ],
  });
  mark('outer surface');
  const fit = fitPayload(
    mesh,
    { analysisType: 'static_stress', markers: [], bbox: boundsOf(f.coords, null, used) },
    capBytes,
  );
  mark(fit.decimated ? 'decimate + JSON + gzip' : 'JSON + gzip');
  return {
    file_mb: mb(bytes.length),
    nodes: f.nodeIds.length,
    elements: f.elemTypes.length,
    baseline_rss_mb: baseline,
    stages,
    total_ms: Math.round(stages.reduce((s, x) => s + x.ms, 0)),
    total_cpu_ms: Math.round(stages.reduce((s, x) => s + x.cpu_ms, 0)),
    payload: {
      bytes: fit.gz.length,
      vertices: fit.vertexCount,
      triangles: fit.triangleCount,
      source_triangles: fit.sourceTriangleCount,
      decimated: fit.decimated,
      cell_mm: fit.cellSize,
      passes: fit.passes,
    },
    max_von_mises: Number(s1.max.toPrecision(5)),
  };
}

// Run as a script (`node field-stages.ts <frd> <cap>`): a fresh, light process, so RSS figures are this path's alone.
if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(JSON.stringify(measureStages(process.argv[2], Number(process.argv[3]))));
