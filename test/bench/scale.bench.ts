// npm run bench:scale — adapter replicas on the real NATS bus (issue 20): 1, 2 and 3 adapter processes, each limited to
// one call at a time (SERVICE_SOLVER_CONCURRENCY=1, SERVICE_CADSCRIPT_CONCURRENCY=1), behind one caller process (role
// tools: the registry's dispatch and the LeastInFlight balancer); the bench process sends 6 concurrent tool calls per
// round through the caller and prints, per replica count, the throughput, its ratio to 1 replica (target >= 1.8x for 2
// on this 2-core machine; the 3-replica line shows where the cores end), the span, p50/p99 latency and p50/p99 wait
// (latency minus the adapter's own run time: queueing at the caller, refusals, the bus), the adapters' run time p50 and
// how busy their slots were over the span (sum of run times / replicas x span: 100% = the balancer never left a slot
// idle while a call waited), and the load average.
// (1) solver.run_fea on the medium beam (beam_medium.inp, 20,135 nodes, static); (2) cadscript.create_parametric of
// bench:cad's plate (100x40x10, 2 mm fillets, two holes). BENCH_SOLVER_ROUNDS (1) and BENCH_CAD_ROUNDS (10) set the
// rounds of 6 calls; BENCH_CALLS (6) the calls per round; BENCH_ONLY=solver or cad runs one of the two.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyFixture } from '../support/sim-fixtures.ts';
import { startScaleCluster, type ScaleCluster } from './support/scale-cluster.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 6);
const SOLVER_ROUNDS = Number(process.env.BENCH_SOLVER_ROUNDS ?? 1);
const CAD_ROUNDS = Number(process.env.BENCH_CAD_ROUNDS ?? 10);
const REPLICAS = [1, 2, 3];
const ONLY = process.env.BENCH_ONLY;
const PLATE = { length: 100, width: 40, thickness: 10, fillet: 2, hole_count: 2, hole_diameter: 6 };

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scale-')));
copyFixture(ws, 'beam_medium.inp.gz');

interface Line {
  replicas: number;
  calls: number;
  spanS: number;
  perMin: number;
  latency: number[];
  wait: number[];
  /** The adapters' own run time of each call (ms). */
  run: number[];
  load: number[];
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
};

async function measure(
  cluster: ScaleCluster,
  tool: string,
  args: (i: number) => Record<string, unknown>,
  rounds: number,
): Promise<Omit<Line, 'replicas'>> {
  // Untimed: one call per replica at once, so every process has run the tool (threads, engines, caches warm).
  await Promise.all(cluster.adapters.map((_, i) => cluster.callTool(tool, args(1000 + i))));
  const latency: number[] = [];
  const wait: number[] = [];
  const run: number[] = [];
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    const done = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => cluster.callTool(tool, args(r * CALLS + i))),
    );
    for (const d of done) {
      if (d.result.status !== 'success') throw new Error(`${tool} failed: ${JSON.stringify(d.result).slice(0, 500)}`);
      latency.push(d.ms);
      wait.push(d.waitMs);
      run.push(d.result.duration_ms);
    }
  }
  const spanS = (performance.now() - t0) / 1000;
  return {
    calls: latency.length,
    spanS,
    perMin: (latency.length / spanS) * 60,
    latency,
    wait,
    run,
    load: os.loadavg(),
  };
}

async function scale(
  label: string,
  role: string,
  adapterId: string,
  env: Record<string, string>,
  tool: string,
  args: (i: number) => Record<string, unknown>,
  rounds: number,
): Promise<Line[]> {
  const cluster = await startScaleCluster({ role, adapterId, env: { SERVICE_WORKSPACE: ws, ...env } });
  const lines: Line[] = [];
  try {
    for (const n of REPLICAS) {
      while (cluster.adapters.length < n) await cluster.addAdapter();
      const line = { replicas: n, ...(await measure(cluster, tool, args, rounds)) };
      lines.push(line);
      print(label, line, lines[0]!);
    }
  } finally {
    await cluster.stop();
  }
  return lines;
}

function print(label: string, l: Line, one: Line) {
  const f = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
  console.log(
    `${label} | ${l.replicas} replica${l.replicas > 1 ? 's' : ' '} | ${l.calls} calls in ${l.spanS.toFixed(1)} s = ` +
      `${l.perMin.toFixed(1)}/min (x${(l.perMin / one.perMin).toFixed(2)} of 1) | latency p50 ${f(q(l.latency, 0.5))} ` +
      `p99 ${f(q(l.latency, 0.99))} | wait p50 ${f(q(l.wait, 0.5))} p99 ${f(q(l.wait, 0.99))} | ` +
      `run p50 ${f(q(l.run, 0.5))} p99 ${f(q(l.run, 0.99))}, slots busy ${((100 * l.run.reduce((a, b) => a + b, 0)) / (l.replicas * l.spanS * 1000)).toFixed(0)}% | ` +
      `load ${l.load.map((x) => x.toFixed(2)).join(' ')}`,
  );
}

console.log(
  `bench:scale on ${os.availableParallelism()} cores, ${CALLS} concurrent calls a round, load average at start ` +
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
);
try {
  if (ONLY !== 'cad')
    await scale(
      'solver.run_fea medium beam',
      'adapter:solver',
      'solver',
      { SERVICE_SOLVER_CONCURRENCY: '1' },
      'solver.run_fea',
      () => ({
        mesh_file: 'beam_medium.inp',
        load_case: 'tip 1000 N',
        analysis_type: 'static_stress',
        load_force_n: [0, 0, -1000],
      }),
      SOLVER_ROUNDS,
    );
  if (ONLY !== 'solver')
    await scale(
      'cadscript.create_parametric  ',
      'adapter:cadscript',
      'cadscript',
      { SERVICE_CADSCRIPT_CONCURRENCY: '1', SERVICE_CAD_THREADS: '1' },
      'cadscript.create_parametric',
      (i) => ({ shape_type: 'plate', parameters: PLATE, output_path: `bench-scale/plate-${i}.step`, overwrite: true }),
      CAD_ROUNDS,
    );
} finally {
  fs.rmSync(ws, { recursive: true, force: true });
}
