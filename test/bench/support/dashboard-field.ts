// A real ~1.5 MB `service.sim_field` payload for bench:dashboard: a thin cantilever plate (300 x 150 x 2 mm, linear
// tets so the surface is large for the solve's size) meshed by gmsh, solved by CalculiX through the solver's own deck
// builder, and turned into a payload by the field worker with the service's cap (1.5 MB: the surface is simplified
// until it fits). Cached in DASHBOARD_BENCH_DIR (default .data/bench-dashboard); the first run takes a minute or two.
// Usage as a script: node test/bench/support/dashboard-field.ts  (prints the payload's figures).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deckMaterial, MATERIALS } from '../../../actors/adapters/solver/materials.ts';
import { prepareDeck } from '../../../workers/simfield/deck.ts';
import { createSimFieldPool } from '../../../workers/simfield/pool.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DASHBOARD_BENCH_DIR = path.resolve(ROOT, process.env.DASHBOARD_BENCH_DIR ?? '.data/bench-dashboard');
const LC = Number(process.env.DASHBOARD_BENCH_LC ?? 1.3);
const CAP = 1_500_000;
const FORCE: [number, number, number] = [0, 0, -20];

const GEO = `// Thin cantilever plate 300 x 150 x 2 mm: x = 0 fixed, 20 N in -Z on x = 300.
SetFactory("OpenCASCADE");
DefineConstant[ lc = {2, Name "element size mm"} ];
Box(1) = {0, 0, 0, 300, 150, 2};
Physical Surface("FIXED") = {1};
Physical Surface("LOAD") = {2};
Physical Volume("PLATE") = {1};
Mesh.CharacteristicLengthMin = lc;
Mesh.CharacteristicLengthMax = lc;
Mesh.ElementOrder = 1;
Mesh.SaveGroupsOfNodes = 1;
`;

export interface BenchField {
  file: string;
  bytes: number;
  vertices: number;
  triangles: number;
  decimated: boolean;
  maxVonMises: number;
}

const log = (s: string) => process.stderr.write(`${s}\n`);

/** The cached payload, made first when missing. */
export async function benchField(): Promise<BenchField> {
  fs.mkdirSync(DASHBOARD_BENCH_DIR, { recursive: true });
  const job = path.join(DASHBOARD_BENCH_DIR, `plate_lc${LC}`);
  const out = `${job}.field.json.gz`;
  const meta = `${job}.field.meta.json`;
  if (fs.existsSync(out) && fs.existsSync(meta)) return JSON.parse(fs.readFileSync(meta, 'utf8')) as BenchField;
  if (!fs.existsSync(`${job}.frd`)) {
    fs.writeFileSync(`${job}.geo`, GEO);
    log(`meshing the plate with lc ${LC} mm (gmsh) ...`);
    execFileSync(
      'gmsh',
      [`${job}.geo`, '-3', '-setnumber', 'lc', String(LC), '-format', 'inp', '-o', `${job}.mesh.inp`],
      {
        stdio: 'ignore',
      },
    );
    const deck = prepareDeck({
      meshPath: `${job}.mesh.inp`,
      deckPath: `${job}.inp`,
      analysis: 'static_stress',
      material: deckMaterial(MATERIALS.steel),
      fixedSet: 'FIXED',
      loadSet: 'LOAD',
      forceN: FORCE,
      numModes: 1,
      sinkTempC: 20,
      powerW: 0,
      maxNodes: 10_000_000,
    });
    if (!deck.ok) throw new Error(deck.message);
    log(`solving ${deck.nodes} nodes / ${deck.elements} elements with ccx (once; cached) ...`);
    const t = performance.now();
    const r = spawnSync('ccx', ['-i', path.basename(job)], { cwd: DASHBOARD_BENCH_DIR, stdio: 'ignore' });
    if (r.status !== 0 || !fs.existsSync(`${job}.frd`)) throw new Error(`ccx failed (exit ${r.status})`);
    log(`  ccx ${((performance.now() - t) / 1000).toFixed(1)} s`);
    fs.writeFileSync(
      `${job}.sets.json`,
      JSON.stringify({ fixed: [...deck.fixedNodeIds], load: [...deck.loadNodeIds] }),
    );
  }
  const sets = JSON.parse(fs.readFileSync(`${job}.sets.json`, 'utf8')) as { fixed: number[]; load: number[] };
  const pool = createSimFieldPool();
  try {
    const built = await pool.run('buildField', {
      frdPath: `${job}.frd`,
      analysisType: 'static_stress',
      outPath: out,
      capBytes: CAP,
      fixtures: [{ label: 'FIXED (fixed)', nodeIds: Int32Array.from(sets.fixed) }],
      loads: [{ label: 'LOAD (force)', nodeIds: Int32Array.from(sets.load), vector: FORCE, unit: 'N' }],
    });
    if (!built.ok) throw new Error(`buildField: ${JSON.stringify(built)}`);
    if (!built.field.ok) throw new Error(`no field: ${built.field.error}`);
    const figures: BenchField = {
      file: out,
      bytes: fs.statSync(out).size,
      vertices: built.field.vertexCount,
      triangles: built.field.triangleCount,
      decimated: built.field.decimated,
      maxVonMises: built.summary.von_mises?.max ?? 0,
    };
    fs.writeFileSync(meta, JSON.stringify(figures));
    return figures;
  } finally {
    await pool.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await benchField();
  process.stdout.write(`${JSON.stringify(f)}\n`);
}
