import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ServiceBroker } from 'moleculer';
import { callTool, okData } from '../../support/tools.ts';

/**
 * The native netlist against KiCad's own (issue 30 point 5): `eda.export_netlist` (format kicad, through the registry,
 * on a copy the adapter has not read: the worker parses it) and `kicad-cli sch export netlist --format kicadsexpr` on
 * the same files, interleaved in one run, median of `runs`. kicad-cli runs with HOME in a fresh folder (its first run
 * there writes KiCad's default tables: one untimed warm-up call).
 */
const run = promisify(execFile);

export async function netlistVsKicadCli(
  broker: ServiceBroker,
  ws: string,
  project: { src: string; root: string },
  runs: number,
): Promise<{ native: number[]; kicad: number[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-kicad-home-'));
  const base = path.basename(project.src);
  let copies = 0;
  const fresh = () => {
    const dir = `${base}-net-${++copies}`;
    fs.cpSync(project.src, path.join(ws, dir), { recursive: true, filter: (f) => !/\.(kicad_pcb|step|wrl)$/.test(f) });
    return `${dir}/${project.root}`;
  };
  const native = async () => {
    const sch = fresh();
    const t0 = performance.now();
    await okData(callTool(broker, 'eda.export_netlist', { schematic_path: sch, format: 'kicad' }));
    return performance.now() - t0;
  };
  const kicad = async () => {
    const sch = path.join(ws, fresh());
    const out = path.join(home, 'bench.net');
    const t0 = performance.now();
    await run('kicad-cli', ['sch', 'export', 'netlist', '--format', 'kicadsexpr', '-o', out, sch], {
      env: { ...process.env, HOME: home },
      maxBuffer: 64 << 20,
    });
    return performance.now() - t0;
  };
  await kicad();
  await native();
  const times = { native: [] as number[], kicad: [] as number[] };
  for (let i = 0; i < runs; i++)
    for (const step of i % 2 ? [kicad, native] : [native, kicad])
      (step === native ? times.native : times.kicad).push(await step());
  fs.rmSync(home, { recursive: true, force: true });
  return times;
}
