// npm run bench:flow-engines — one hardware_v1 run of the issue's reference request on the real engines (CAD kernel,
// gmsh, CalculiX, KiCad's pcbnew, gcc), every gate approved as soon as it is ready, beside the baseline of the same run:
// one mech_v1 cantilever run on the same node (CAD, gmsh, CalculiX). Prints wall time, per-phase times and the ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../brokers/config.ts';
import { startNode } from '../../brokers/launcher/node.ts';
import { createRootLogger } from '../../brokers/logger.ts';
import { importBoard, timedRun } from './support/engine-runs.ts';

const HARDWARE =
  'a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a 2 g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';
const MECH = 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-flow-engines-'));
const config = loadConfig({
  SERVICE_PORT: '0',
  SERVICE_DATA_DIR: 'memory://',
  SERVICE_LOG_LEVEL: 'error',
  SERVICE_WORKSPACE: workspace,
});
const node = await startNode({ roles: 'all', config, log: createRootLogger({ level: 'error', toStderr: true }) });
const base = `http://127.0.0.1:${node.gateway.address!.port}`;
const project = async (name: string) =>
  (
    (await (
      await fetch(`${base}/v1/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
    ).json()) as { id: string }
  ).id;
try {
  const mech = await timedRun(base, 'mech_v1', await project('bench cantilever'), MECH);
  const pid = await project('bench sensor');
  await importBoard(base, workspace, pid);
  const hw = await timedRun(base, 'hardware_v1', pid, HARDWARE);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write(
    `\nbench:flow-engines  ${os.availableParallelism()} cores, Node ${process.versions.node}, one process (PGlite), gates approved at once\n` +
      `  baseline mech_v1 cantilever   ${s(mech.total_ms)}  ${mech.verdict}  ${mech.phases.map(([p, ms]) => `${p} ${ms}`).join(', ')} ms\n` +
      `  hardware_v1 reference request ${s(hw.total_ms)}  ${hw.verdict}  ${hw.phases.map(([p, ms]) => `${p} ${ms}`).join(', ')} ms\n` +
      `  ratio hardware_v1 / mech_v1   ${(hw.total_ms / mech.total_ms).toFixed(2)}\n`,
  );
} finally {
  await node.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
}
