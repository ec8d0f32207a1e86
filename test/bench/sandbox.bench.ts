// npm run bench:sandbox — what the engine sandbox (README "Engine sandbox", SERVICE_ENGINE_SANDBOX) costs, measured with
// it on (bwrap) and off in the same run, alternating (on/off, then off/on) after one untimed run of each:
// (1) the medium beam solve (20,135 nodes, the fixture deck) through runCcx, the solver adapter's own spawn path;
// (2) gmsh meshing beam.geo at lc 2.6 (the medium mesh) through engineCommand, the builder runGmsh spawns with;
// (3) a small ngspice run (rc_lowpass.cir, op) through runNgspice: the sandbox's fixed cost per engine start;
// (4) bench:cad's solver-free path, cadscript.create_parametric through the registry, on a node started with
//     SERVICE_ENGINE_SANDBOX=bwrap and one with off (that path spawns no engine: the variable changes nothing there).
// Target: the sandbox costs at most 10 % (median on / median off <= 1.10) on the medium beam and on the CAD path.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { call } from '../../brokers/actions.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import { runNgspice } from '../../actors/adapters/circuit/ngspice.ts';
import { engineCommand, setEngineSandbox, type EngineSandbox } from '../../actors/adapters/kit/sandbox.ts';
import { runCcx } from '../../actors/adapters/solver/ccx.ts';
import { startTestNode } from '../support/node.ts';
import { SIM_FIXTURES } from '../support/sim-fixtures.ts';

const FIXTURES = SIM_FIXTURES;
const PAIRS = Number(process.env.BENCH_RUNS ?? 4);
const SMALL_PAIRS = Number(process.env.BENCH_SMALL_RUNS ?? 20);
const PLATE = { length: 100, width: 40, thickness: 10, fillet: 2, hole_count: 2, hole_diameter: 6 };
const MODES: EngineSandbox[] = ['bwrap', 'off'];

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-')));
const deck = zlib.gunzipSync(fs.readFileSync(`${FIXTURES}/beam_medium.inp.gz`));
const scratch = (tool: string) => {
  const dir = path.join(ws, 'calls', tool, crypto.randomUUID());
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

interface Row {
  stage: string;
  times: Record<EngineSandbox, number[]>;
}

/** `prep` (untimed) then `run` (timed), alternating the modes; one untimed run of each mode first. */
async function alternate<T>(
  stage: string,
  pairs: number,
  prep: () => T,
  run: (x: T, mode: EngineSandbox) => Promise<void>,
): Promise<Row> {
  const times: Record<EngineSandbox, number[]> = { bwrap: [], off: [] };
  for (const mode of MODES) {
    setEngineSandbox(mode);
    await run(prep(), mode);
  }
  for (let i = 0; i < pairs; i++) {
    for (const mode of i % 2 ? [...MODES].reverse() : MODES) {
      const x = prep();
      setEngineSandbox(mode);
      const t = performance.now();
      await run(x, mode);
      times[mode].push(performance.now() - t);
    }
  }
  setEngineSandbox('bwrap');
  for (const m of MODES) times[m].sort((a, b) => a - b);
  return { stage, times };
}

const rows: Row[] = [];
rows.push(
  await alternate(
    'ccx: medium beam static solve (runCcx)',
    PAIRS,
    () => {
      const dir = scratch('solver.run_fea');
      fs.writeFileSync(path.join(dir, 'beam_medium.inp'), deck);
      return dir;
    },
    async (dir) => {
      const r = await runCcx({ dir, job: 'beam_medium', signal: AbortSignal.timeout(600_000) });
      if (fs.statSync(r.frd).size < 5e6)
        throw new Error(`the medium .frd is ${fs.statSync(r.frd).size} bytes, not the ~5.8 MB of the fixture`);
    },
  ),
);
console.log('medium solve measured');

rows.push(
  await alternate(
    'gmsh: beam.geo lc 2.6 (engineCommand)',
    PAIRS,
    () => scratch('cadkernel.generate_mesh'),
    async (dir) => {
      const cmd = await engineCommand(
        'gmsh',
        [`${FIXTURES}/beam.geo`, '-3', '-setnumber', 'lc', '2.6', '-format', 'inp', '-o', 'mesh.inp'],
        { scratch: dir, missing: 'gmsh' },
      );
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(cmd.command, cmd.args, { cwd: dir, env: { ...process.env, DISPLAY: '' }, stdio: 'ignore' });
        child.once('error', reject);
        child.once('close', resolve);
      });
      if (code !== 0 || fs.statSync(path.join(dir, 'mesh.inp')).size < 1e6)
        throw new Error(`gmsh failed (exit ${code})`);
    },
  ),
);
console.log('medium mesh measured');

const netlist = fs.readFileSync(`${FIXTURES}/spice/rc_lowpass.cir`, 'utf8').replace(/^\.(tran|ac|dc)\b.*$/gim, '');
rows.push(
  await alternate(
    'ngspice: rc_lowpass op (runNgspice)',
    SMALL_PAIRS,
    () => {
      const dir = scratch('circuit.run_simulation');
      fs.writeFileSync(path.join(dir, 'netlist.cir'), netlist);
      return dir;
    },
    async (dir) => {
      const r = await runNgspice('/usr/bin/ngspice', {
        cwd: dir,
        netlist: 'netlist.cir',
        raw: 'out.raw',
        signal: AbortSignal.timeout(60_000),
      });
      if (r.exitCode !== 0 || !fs.existsSync(path.join(dir, 'out.raw'))) throw new Error(`ngspice failed: ${r.stderr}`);
    },
  ),
);

const nodes = Object.fromEntries(
  await Promise.all(
    MODES.map(async (mode) => {
      const env = {
        SERVICE_WORKSPACE: ws,
        SERVICE_CAD_THREADS: '1',
        SERVICE_LOG_LEVEL: 'error',
        SERVICE_ENGINE_SANDBOX: mode,
      };
      return [mode, await startTestNode({ roles: 'tools,adapter:cadscript', env })] as const;
    }),
  ),
);
rows.push(
  await alternate(
    'cadscript.create_parametric plate (bench:cad path)',
    SMALL_PAIRS,
    () => undefined,
    async (_, mode) => {
      const out = await call(nodes[mode].node.broker, ToolsActions.call, {
        name: 'cadscript.create_parametric',
        arguments: { shape_type: 'plate', parameters: PLATE, output_path: `bench/plate-${mode}.step`, overwrite: true },
        call_id: `b-${crypto.randomUUID()}`,
        caller: { kind: 'stdio', transport: 'stdio' },
      });
      const volume =
        out.status === 'success' ? JSON.stringify(out.data).match(/"volume_mm3":([\d.]+)/)?.[1] : undefined;
      if (Math.abs(Number(volume) - 38930.183) > 0.01) throw new Error(`wrong plate: ${JSON.stringify(out)}`);
    },
  ),
);
for (const n of Object.values(nodes)) await n.stop();
fs.rmSync(ws, { recursive: true, force: true });

const med = (xs: number[]) =>
  xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
const f = (v: number) => v.toFixed(1).padStart(9);
console.log(
  `\nEngine sandbox benchmark: bwrap on vs off, alternating; ${os.availableParallelism()} cores, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `${'stage'.padEnd(52)}${'runs'.padStart(6)}${'on p50'.padStart(9)}${'off p50'.padStart(9)}${'on min'.padStart(9)}${'off min'.padStart(9)}${'ratio'.padStart(8)}  (ms)`,
);
for (const r of rows) {
  const ratio = med(r.times.bwrap) / med(r.times.off);
  console.log(
    `${r.stage.padEnd(52)}${String(r.times.bwrap.length).padStart(6)}${f(med(r.times.bwrap))}${f(med(r.times.off))}${f(r.times.bwrap[0])}${f(r.times.off[0])}${ratio.toFixed(3).padStart(8)}`,
  );
}
for (const r of [rows[0], rows[3]]) {
  const ratio = med(r.times.bwrap) / med(r.times.off);
  console.log(
    `target: ${r.stage} costs at most 10 % with the sandbox (ratio ${ratio.toFixed(3)}): ${ratio <= 1.1 ? 'met' : 'NOT met'}`,
  );
}
process.exit(0);
