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
 * there writes KiCad's default tables: one untimed warm-up call). Besides the wall time, the CPU time each side spent:
 * the whole node process's (its threads: the registry, the adapter, the eda worker) for the native call, kicad-cli's
 * own (the shell's `times` of its child) for KiCad's. On a loaded machine the wall ratio also measures the scheduler:
 * the eda worker thread runs at nice 10 (decision 0040) and kicad-cli at the caller's priority.
 */
const run = promisify(execFile);

export async function netlistVsKicadCli(
  broker: ServiceBroker,
  ws: string,
  project: { src: string; root: string },
  runs: number,
): Promise<{ native: number[]; kicad: number[]; nativeCpu: number[]; kicadCpu: number[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-kicad-home-'));
  const base = path.basename(project.src);
  let copies = 0;
  const fresh = () => {
    const dir = `${base}-net-${++copies}`;
    fs.cpSync(project.src, path.join(ws, dir), { recursive: true, filter: (f) => !/\.(kicad_pcb|step|wrl)$/.test(f) });
    return `${dir}/${project.root}`;
  };
  const cpu = { native: [] as number[], kicad: [] as number[] };
  const native = async () => {
    const sch = fresh();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await okData(callTool(broker, 'eda.export_netlist', { schematic_path: sch, format: 'kicad' }));
    const c = process.cpuUsage(c0);
    cpu.native.push((c.user + c.system) / 1000);
    return performance.now() - t0;
  };
  const kicad = async () => {
    const sch = path.join(ws, fresh());
    const out = path.join(home, 'bench.net');
    const t0 = performance.now();
    // `times` prints the shell's CPU times, then its children's: kicad-cli's user and system time.
    const script = 'kicad-cli "$@" >/dev/null || exit $?; times >&2';
    const args = ['sch', 'export', 'netlist', '--format', 'kicadsexpr', '-o', out, sch];
    const { stderr } = await run('sh', ['-c', script, 'sh', ...args], {
      env: { ...process.env, HOME: home },
      maxBuffer: 64 << 20,
    });
    const wall = performance.now() - t0;
    cpu.kicad.push(childCpuMs(stderr));
    return wall;
  };
  await kicad();
  await native();
  cpu.native.length = cpu.kicad.length = 0;
  const times = { native: [] as number[], kicad: [] as number[] };
  for (let i = 0; i < runs; i++)
    for (const step of i % 2 ? [kicad, native] : [native, kicad])
      (step === native ? times.native : times.kicad).push(await step());
  fs.rmSync(home, { recursive: true, force: true });
  return { ...times, nativeCpu: cpu.native, kicadCpu: cpu.kicad };
}

/** The children's user + system time (ms) from the second line `times` prints (`0m4.62s 0m0.71s`). */
export function childCpuMs(timesOutput: string): number {
  const line = timesOutput.trim().split('\n').at(-1) ?? '';
  const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  if (secs.length !== 2) throw new Error(`no CPU times in ${JSON.stringify(timesOutput)}`);
  return (secs[0]! + secs[1]!) * 1000;
}
