import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { Piscina } from 'piscina';
import { createSimFieldPool } from '../../workers/simfield/pool.ts';
import { deckMaterial, MATERIALS } from '../../actors/adapters/solver/materials.ts';
import { prepareDeck } from '../../workers/simfield/deck.ts';
import type { measureStages } from './support/field-stages.ts';
import { SIM_FIXTURES } from '../support/sim-fixtures.ts';

/**
 * `npm run bench:field`: the `.frd`-to-payload path on the medium fixture and on a fine beam meshed and solved here
 * (gmsh beam.geo, lc = FIELD_BENCH_LC, default 1.1 mm: ~212k nodes, a 64 MB .frd; the solve takes minutes and ~6 GB,
 * so it is cached in FIELD_BENCH_DIR, default .data/bench-field). Each file is measured stage by stage in a fresh
 * process (wall time, RSS, peak RSS); then through the adapter's piscina pool, and the worker loaded as .ts vs compiled .js.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = SIM_FIXTURES;
const DIR = path.resolve(ROOT, process.env.FIELD_BENCH_DIR ?? '.data/bench-field');
const LC = Number(process.env.FIELD_BENCH_LC ?? 1.1);
const CAP = 1_500_000;

const log = (...a: unknown[]) => process.stdout.write(`${a.join(' ')}\n`);
fs.mkdirSync(DIR, { recursive: true });

function mediumFrd(): string {
  const out = path.join(DIR, 'beam_medium.frd');
  if (!fs.existsSync(out)) fs.writeFileSync(out, zlib.gunzipSync(fs.readFileSync(`${FIXTURES}/beam_medium.frd.gz`)));
  return out;
}

/** Meshes and solves the fine beam once (cached): gmsh, the adapter's own deck, ccx with one thread. */
function fineFrd(): string {
  const job = path.join(DIR, `beam_fine_lc${LC}`);
  if (fs.existsSync(`${job}.frd`)) return `${job}.frd`;
  log(`meshing beam.geo with lc ${LC} (gmsh) ...`);
  let t = performance.now();
  execFileSync(
    'gmsh',
    [`${FIXTURES}/beam.geo`, '-3', '-setnumber', 'lc', String(LC), '-format', 'inp', '-o', `${job}.mesh.inp`],
    { stdio: 'ignore' },
  );
  log(`  gmsh ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const deck = prepareDeck({
    meshPath: `${job}.mesh.inp`,
    deckPath: `${job}.inp`,
    analysis: 'static_stress',
    material: deckMaterial(MATERIALS.steel),
    fixedSet: 'FIXED',
    loadSet: 'LOAD',
    forceN: [0, 0, -1000],
    numModes: 1,
    sinkTempC: 20,
    powerW: 0,
    maxNodes: 10_000_000,
  });
  if (!deck.ok) throw new Error(deck.message);
  log(`solving ${deck.nodes} nodes / ${deck.elements} elements with ccx (1 thread; minutes, several GB) ...`);
  t = performance.now();
  const r = spawnSync('ccx', ['-i', path.basename(job)], {
    cwd: DIR,
    env: { ...process.env, OMP_NUM_THREADS: '1' },
    stdio: 'ignore',
  });
  if (r.status !== 0 || !fs.existsSync(`${job}.frd`)) throw new Error(`ccx failed (exit ${r.status})`);
  log(`  ccx ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return `${job}.frd`;
}

/** Stage figures of one file, measured in a fresh Node process. */
function stagesOf(frd: string, cap: number) {
  const script = fileURLToPath(new URL('./support/field-stages.ts', import.meta.url));
  const out = execFileSync(process.execPath, [script, frd, String(cap)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out) as ReturnType<typeof measureStages>;
}

function report(name: string, r: ReturnType<typeof measureStages>) {
  log(
    `\n${name}: ${r.file_mb} MB .frd, ${r.nodes} nodes, ${r.elements} elements (baseline RSS ${r.baseline_rss_mb} MB)`,
  );
  for (const s of r.stages)
    log(
      `  ${s.stage.padEnd(30)} ${String(s.ms).padStart(7)} ms wall ${String(s.cpu_ms).padStart(7)} ms CPU   RSS ${String(s.rss_mb).padStart(6)} MB   peak ${String(s.peak_rss_mb).padStart(6)} MB`,
    );
  const peak = Math.max(...r.stages.map((s) => s.peak_rss_mb));
  log(
    `  total ${r.total_ms} ms wall, ${r.total_cpu_ms} ms CPU; peak RSS ${peak} MB = ${(peak / r.file_mb).toFixed(2)}x the file (${((peak - r.baseline_rss_mb) / r.file_mb).toFixed(2)}x above the baseline)`,
  );
  log(
    `  payload ${r.payload.bytes} B, ${r.payload.vertices} v / ${r.payload.triangles} t of ${r.payload.source_triangles}${r.payload.decimated ? `, decimated (cell ${r.payload.cell_mm} mm, ${r.payload.passes} pass)` : ''}; max von Mises ${r.max_von_mises} MPa`,
  );
}

/** Compiles the worker to JS (tsc, rewriting .ts imports) for the .ts-vs-.js comparison. */
function compiledWorker(): string {
  const out = path.join(DIR, 'js');
  const cfg = path.join(DIR, 'tsconfig.worker.json');
  fs.writeFileSync(
    cfg,
    JSON.stringify({
      extends: path.join(ROOT, 'tsconfig.json'),
      compilerOptions: { noEmit: false, outDir: out, rootDir: ROOT },
      include: [path.join(ROOT, 'workers/simfield/sim-field.worker.ts')],
    }),
  );
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', cfg], { stdio: 'inherit' });
  return path.join(out, 'workers/simfield/sim-field.worker.js');
}

async function firstTask(filename: string, frd: string): Promise<number> {
  const pool = new Piscina({ filename, minThreads: 0, maxThreads: 1 });
  const t = performance.now();
  await pool.run({ frdPath: frd, outPath: null, capBytes: CAP }, { name: 'buildField' });
  const ms = performance.now() - t;
  await pool.destroy();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

log(
  `field bench on ${os.availableParallelism()} cores, Node ${process.version}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const medium = mediumFrd();
const fine = fineFrd();
report('medium fixture', stagesOf(medium, CAP));
report(`fine beam (lc ${LC})`, stagesOf(fine, CAP));
report(`fine beam, cap 200 KB (forced decimation)`, stagesOf(fine, 200_000));

const pool = createSimFieldPool();
const coarse = `${FIXTURES}/beam_coarse.frd`;
let t = performance.now();
await pool.run('buildField', { frdPath: coarse, outPath: null, capBytes: CAP });
log(`\nadapter pool (${pool.threads} threads): first task incl. thread start ${(performance.now() - t).toFixed(0)} ms`);
for (const [name, frd] of [
  ['medium', medium],
  ['fine', fine],
  ['fine again', fine],
] as const) {
  t = performance.now();
  const r = await pool.run('buildField', { frdPath: frd.toString(), outPath: null, capBytes: CAP });
  const timings = Object.entries(r.timings)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');
  log(`  ${name.padEnd(11)} file to payload ${(performance.now() - t).toFixed(0)} ms (${timings})`);
}
t = performance.now();
await Promise.all([
  pool.run('buildField', { frdPath: fine, outPath: null, capBytes: CAP }),
  pool.run('buildField', { frdPath: fine, outPath: null, capBytes: CAP }),
]);
log(`  two fine files at once on the pool: ${(performance.now() - t).toFixed(0)} ms`);
await pool.destroy();

const tsWorker = new URL('../../workers/simfield/sim-field.worker.ts', import.meta.url).href;
const jsWorker = compiledWorker();
const ts: number[] = [];
const js: number[] = [];
for (let i = 0; i < 5; i++) {
  ts.push(await firstTask(tsWorker, coarse));
  js.push(await firstTask(jsWorker, coarse));
}
log(
  `\nworker format, first task (thread start + load + coarse field), median of 5: .ts ${median(ts).toFixed(0)} ms, compiled .js ${median(js).toFixed(0)} ms`,
);
