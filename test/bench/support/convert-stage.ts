// The STEP → GLB stage of the CAD benchmarks (issue 5 target: a ~400 KB assembly under 0.5 s warm), shared by
// `npm run bench:convert` and `npm run bench:cad`: an assembly of separate solids written by gmsh's OpenCASCADE kernel
// at bench time, converted through the conversion worker pool once cold and `runs` times warm. Wall time and the
// process's CPU time are both reported: on a shared, loaded machine the CPU time is what one free core would take.
import fs from 'node:fs/promises';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createConvertPool } from '../../../workers/convert/pool.ts';
import { assemblyGeo, gmshStep } from '../../support/cad-files.ts';

type Run = { wall: number; cpu: number; read: number; build: number; triangles: number; glb: number; parts: number };

/** Runs the stage and returns the report lines (BENCH_PARTS solids, default 56 ≈ 400 KB; BENCH_CONVERT_RUNS warm runs, default 7). */
export async function convertStage(
  parts = Number(process.env.BENCH_PARTS ?? 56),
  runs = Number(process.env.BENCH_CONVERT_RUNS ?? 7),
): Promise<string[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-convert-'));
  const gmsh = new Uint8Array(await fs.readFile(await gmshStep(dir, 'assembly', assemblyGeo(parts))));
  // The CAx-IF as1 assembly (442 KB, 18 parts) that occt-import-js ships with its tests: the file notes/cad-kernel.md
  // measured (511 ms warm), so both figures are comparable.
  const as1 = new Uint8Array(
    await fs.readFile(createRequire(import.meta.url).resolve('occt-import-js/test/testfiles/cax-if/as1-oc-214.stp')),
  );
  const out = [...(await measure('gmsh assembly', gmsh, runs)), ...(await measure('CAx-IF as1-oc-214.stp', as1, runs))];
  await fs.rm(dir, { recursive: true, force: true });
  return out;
}

async function measure(label: string, source: Uint8Array, runs: number): Promise<string[]> {
  const pool = createConvertPool({ maxThreads: 1 });
  const once = async (): Promise<Run> => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const out = await pool.run({ source, format: 'step' });
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (!out.ok) throw new Error(`conversion failed: ${out.reason}`);
    const s = out.metadata.stats;
    return {
      wall,
      cpu: (c.user + c.system) / 1000,
      read: s.read_ms,
      build: s.build_ms,
      triangles: s.triangles,
      glb: s.glb_bytes,
      parts: s.parts,
    };
  };
  const cold = await once();
  const warm: Run[] = [];
  for (let i = 0; i < runs; i++) warm.push(await once());
  await pool.close();

  const sorted = (k: keyof Run) => warm.map((r) => r[k]).sort((a, b) => a - b);
  const median = (k: keyof Run) => sorted(k)[Math.floor(warm.length / 2)];
  const ms = (v: number) => `${Math.round(v)} ms`;
  const kb = (v: number) => `${(v / 1024).toFixed(0)} KB`;
  const rows: [string, string][] = [
    ['source', `${kb(source.byteLength)} STEP, ${cold.parts} parts`],
    ['output', `${kb(cold.glb)} GLB, ${cold.triangles} triangles (deflection 0.1 mm, 0.5 rad)`],
    ['cold first file (pool start + reader init)', `${ms(cold.wall)} (read ${ms(cold.read)}, GLB ${ms(cold.build)})`],
    [
      `warm, median of ${runs}`,
      `${ms(median('wall'))} (read + tessellate ${ms(median('read'))}, GLB ${ms(median('build'))})`,
    ],
    ['warm min / max', `${ms(sorted('wall')[0])} / ${ms(sorted('wall').at(-1)!)}`],
    ['warm CPU time, median (≈ wall on a free core)', ms(median('cpu'))],
    [
      'target: under 500 ms warm',
      `wall ${median('wall') < 500 ? 'met' : 'NOT met'}, CPU ${median('cpu') < 500 ? 'met' : 'NOT met'}`,
    ],
    ['peak RSS of the process so far', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`],
  ];
  return [
    `STEP -> GLB of the ${label} (occt-import-js + gltf-transform, 1 worker thread), ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    ...rows.map(([k, v]) => `  ${k.padEnd(46)} ${v}`),
  ];
}
