// npm run bench:convert — STEP to GLB of an assembly of ~400 KB (separate solids written by gmsh's OpenCASCADE kernel at
// bench time), through the conversion worker pool: the cold first file (thread start, reader init, wasm tier-up), then
// warm runs (target: under 0.5 s), split into read + tessellate and GLB build, with CPU time beside wall time (the
// machine may be shared); peak RSS of the process. Env:
// BENCH_PARTS (default 56 solids ≈ 400 KB), BENCH_RUNS (warm runs, default 7).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createConvertPool } from '../../gateway/convert/pool.ts';
import { assemblyGeo, gmshStep } from '../support/cad-files.ts';

const parts = Number(process.env.BENCH_PARTS ?? 56);
const runs = Number(process.env.BENCH_RUNS ?? 7);
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-convert-'));
const source = new Uint8Array(await fs.readFile(await gmshStep(dir, 'assembly', assemblyGeo(parts))));
const pool = createConvertPool({ maxThreads: 1 });

type Run = { wall: number; cpu: number; read: number; build: number; triangles: number; glb: number; parts: number };
async function once(): Promise<Run> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out = await pool.run({ source, format: 'step' });
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (!out.ok) throw new Error(`conversion failed: ${out.reason}`);
  const s = out.metadata.stats;
  return { wall, cpu: (c.user + c.system) / 1000, read: s.read_ms, build: s.build_ms, triangles: s.triangles, glb: s.glb_bytes, parts: s.parts };
}

const cold = await once();
const warm: Run[] = [];
for (let i = 0; i < runs; i++) warm.push(await once());
await pool.close();
await fs.rm(dir, { recursive: true, force: true });

const sorted = (k: keyof Run) => warm.map((r) => r[k]).sort((a, b) => a - b);
const median = (k: keyof Run) => sorted(k)[Math.floor(warm.length / 2)];
const ms = (v: number) => `${Math.round(v)} ms`;
const kb = (v: number) => `${(v / 1024).toFixed(0)} KB`;
const rows: [string, string][] = [
  ['source', `${kb(source.byteLength)} STEP, ${cold.parts} parts`],
  ['output', `${kb(cold.glb)} GLB, ${cold.triangles} triangles (deflection 0.1 mm, 0.5 rad)`],
  ['cold first file (pool start + reader init)', `${ms(cold.wall)} (read ${ms(cold.read)}, GLB ${ms(cold.build)})`],
  [`warm, median of ${runs}`, `${ms(median('wall'))} (read + tessellate ${ms(median('read'))}, GLB ${ms(median('build'))})`],
  ['warm min / max', `${ms(sorted('wall')[0])} / ${ms(sorted('wall').at(-1)!)}`],
  // On a shared, loaded machine wall time overstates the cost: the CPU time of the process (the waiting main thread adds
  // little) is what one free core would take.
  ['warm CPU time, median (≈ wall time on a free core)', ms(median('cpu'))],
  ['target (issue 5)', `under 500 ms warm: wall ${median('wall') < 500 ? 'met' : 'NOT met'}, CPU ${median('cpu') < 500 ? 'met' : 'NOT met'}`],
  ['peak RSS (this process, incl. the worker thread)', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`],
];
process.stdout.write(`\nbench:convert  ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}, 1 worker thread\n`);
for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(48)} ${v}\n`);
