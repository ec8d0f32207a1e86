import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call } from '../../../brokers/actions.ts';
import { FirmwareActions } from '../../../contracts/actions/firmware.actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import type { ServiceBroker } from 'moleculer';
import { sensorFirmware } from '../../support/firmware-parts.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { createTestDatabase } from '../../support/pg.ts';
import { natsClusterEnv } from '../../support/servers.ts';
import { copyFixture, SIM_FIXTURES } from '../../support/sim-fixtures.ts';
import { spawnService } from '../../support/spawn.ts';
import { MCP_HEADERS, mcpLoad, openSession } from './mcp-load.ts';
import { procMb, sampleTree } from './rss.ts';
import { until } from './until.ts';

/** One k8s Deployment (k8s/base): its `--roles` and the work that drives it to its peak (none: idle only). */
interface Deployment {
  name: string;
  roles: string;
  work?: { doc: string; run(tool: ToolCaller, bus: ServiceBroker, port?: number): Promise<void> };
}

type ToolCaller = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** How a bus call reports an action whose service has not joined yet. */
const ABSENT = new Set(['SERVICE_UNAVAILABLE', 'SERVICE_NOT_FOUND', 'SERVICE_NOT_AVAILABLE']);

const PLATE = { length: 100, width: 40, thickness: 10, fillet: 2, hole_count: 2, hole_diameter: 6 };

/** The Deployments of k8s/base/{gateway,harness,actors,adapters}.yaml, with the k8s env that changes memory. */
const DEPLOYMENTS: Deployment[] = [
  {
    name: 'gateway',
    roles: 'gateway',
    work: {
      doc: 'MCP tools/list over Streamable HTTP, 50 connections for 10 s (the registry on the tools node)',
      async run(_tool, _bus, port) {
        const base = `http://127.0.0.1:${port}`;
        const headers = { ...MCP_HEADERS, 'mcp-session-id': await openSession(base) };
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
        await until(async () => (await fetch(`${base}/mcp`, { method: 'POST', headers, body })).ok || undefined, {
          what: 'the gateway answering',
        });
        const r = await mcpLoad('gateway', { url: `${base}/mcp`, body, headers, connections: 50, seconds: 10 });
        if (r.non2xx + r.errors + r.rpcErrors > 0 || r.calls === 0)
          throw new Error(`tools/list under load failed: ${JSON.stringify(r)}`);
      },
    },
  },
  { name: 'harness', roles: 'harness' },
  { name: 'projects', roles: 'projects,adapter:project' },
  { name: 'tools', roles: 'tools' },
  { name: 'twin', roles: 'twin,adapter:twin' },
  { name: 'flow', roles: 'runs,gates,adapter:flow' },
  { name: 'approvals', roles: 'approvals,holds' },
  {
    name: 'knowledge',
    roles: 'sessions,knowledge,memory,chat,adapter:session,adapter:knowledge,adapter:memory',
  },
  {
    name: 'adapter-solver',
    roles: 'adapter:solver',
    work: {
      doc: 'solver.run_fea, medium beam (20,135 nodes): ccx + the field pool building the payload',
      async run(tool) {
        const r = await tool('solver.run_fea', {
          mesh_file: 'beam_medium.inp',
          load_case: 'tip load 1000 N',
          analysis_type: 'static_stress',
          material: 'steel',
          fixed_node_set: 'FIXED',
          load_node_set: 'LOAD',
          load_force_n: [0, 0, -1000],
        });
        if (r.mesh_nodes !== 20135) throw new Error(`unexpected run_fea answer ${JSON.stringify(r).slice(0, 300)}`);
      },
    },
  },
  {
    name: 'adapter-cadscript',
    roles: 'adapter:cadscript',
    work: {
      doc: '2 concurrent cadscript.create_parametric plates (both kernel threads start)',
      async run(tool) {
        await Promise.all(
          [1, 2].map((i) =>
            tool('cadscript.create_parametric', {
              shape_type: 'plate',
              parameters: PLATE,
              output_path: `peaks/s${i}.step`,
              overwrite: true,
            }),
          ),
        );
      },
    },
  },
  {
    name: 'adapter-cadkernel',
    roles: 'adapter:cadkernel,cadsessions',
    work: {
      doc: '2 concurrent cadkernel.create_parametric plates, then cadkernel.generate_mesh of one (gmsh, default size)',
      async run(tool) {
        await Promise.all(
          [1, 2].map((i) =>
            tool('cadkernel.create_parametric', {
              shape_type: 'plate',
              parameters: PLATE,
              output_path: `peaks/k${i}.step`,
              overwrite: true,
            }),
          ),
        );
        const mesh = await tool('cadkernel.generate_mesh', { file_path: 'peaks/k1.step' });
        if (!mesh.mesh_file) throw new Error(`unexpected generate_mesh answer ${JSON.stringify(mesh).slice(0, 300)}`);
      },
    },
  },
  {
    name: 'adapter-circuit',
    roles: 'adapter:circuit',
    work: {
      doc: 'circuit.run_simulation of the RC low-pass fixture: AC sweep, then a transient (ngspice, under the sampling)',
      async run(tool) {
        const netlist = fs.readFileSync(path.join(SIM_FIXTURES, 'spice/rc_lowpass.cir'), 'utf8');
        for (const analysis_type of ['ac', 'transient'])
          await tool('circuit.run_simulation', { netlist, analysis_type, probes: ['v(out)'] });
      },
    },
  },
  {
    name: 'firmware',
    roles: 'firmware',
    work: {
      doc: "firmware.build of the sensor board's generated scaffold (gcc, five units and a link)",
      async run(_tool, bus) {
        const files = sensorFirmware();
        // The firmware role joins the bus a moment after its node is ready.
        const out = await until(
          () =>
            call(bus, FirmwareActions.build, { run_id: `peak-${crypto.randomUUID()}`, files }).catch((err: unknown) => {
              if (ABSENT.has((err as { type?: string }).type ?? '')) return undefined;
              throw err;
            }),
          { what: 'firmware.build available', timeoutMs: 60_000, everyMs: 250 },
        );
        if (!out.passed) throw new Error(`the scaffold did not build: ${out.output.slice(0, 300)}`);
      },
    },
  },
  {
    name: 'adapter-eda',
    roles: 'adapter:eda',
    work: {
      doc: "KiCad's largest demo (video): netlist + ERC of its 8 sheets, then DRC + Gerbers of its 7.4 MB board (pcbnew)",
      async run(tool) {
        await tool('eda.export_netlist', { schematic_path: 'video/video.kicad_sch', format: 'kicad' });
        await tool('eda.run_erc', { schematic_path: 'video/video.kicad_sch' });
        await tool('eda.run_drc', { board_path: 'video/video.kicad_pcb' });
        await tool('eda.export_gerber', { board_path: 'video/video.kicad_pcb' });
      },
    },
  },
  { name: 'adapter-web', roles: 'adapter:web' },
];

export interface PeakRow {
  name: string;
  roles: string;
  idleMb: number;
  peakMb: number;
  nodeHwmMb: number;
  work: string;
  workMs: number;
}

/**
 * Starts each Deployment's roles as a node of its own (the real `service` command) on NATS and a PostgreSQL database
 * of its own, with the k8s environment that sizes memory (2 kernel threads, 256 MB heap recycle, engines bare), reads
 * its idle size, then runs its work through a `tools` node in this process (a local caller, so nothing is held) while
 * sampling the resident size of the node and the engines it spawns.
 */
export async function deploymentPeaks(opts: { settleMs: number }): Promise<PeakRow[]> {
  const db = await createTestDatabase('bench_memory');
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-peaks-'));
  copyFixture(ws, 'beam_medium.inp.gz');
  fs.cpSync('/usr/share/kicad/demos/video', path.join(ws, 'video'), { recursive: true });
  const bus = natsClusterEnv();
  const env = {
    ...bus,
    SERVICE_DATABASE_URL: db.url,
    SERVICE_WORKSPACE: ws,
    SERVICE_PORT: '0',
    SERVICE_CAD_THREADS: '2',
    SERVICE_CAD_HEAP_RECYCLE_MB: '256',
    SERVICE_ENGINE_SANDBOX: 'off',
    SERVICE_REQUEST_TIMEOUT_MS: '600000',
  };
  let caller: TestNode | undefined;
  const rows: PeakRow[] = [];
  try {
    caller = await startTestNode({ roles: 'tools', env: { ...env, SERVICE_LOG_LEVEL: 'error' } });
    const broker = caller.node.broker;
    const tool: ToolCaller = async (name, args) => {
      const once = () =>
        call(
          broker,
          ToolsActions.call,
          {
            name,
            arguments: args,
            timeout_seconds: 600,
            call_id: `peak-${crypto.randomUUID()}`,
            caller: { kind: 'stdio', transport: 'stdio' },
          },
          { timeout: 620_000 },
        );
      // The adapter joins the registry a moment after its node is ready.
      const out: ToolResult = await until(
        async () => {
          const r = await once();
          return r.status === 'error' && r.error.type === 'TOOL_UNAVAILABLE' ? undefined : r;
        },
        { what: `${name} available`, timeoutMs: 60_000, everyMs: 250 },
      );
      if (out.status !== 'success') throw new Error(`${name} failed: ${JSON.stringify(out).slice(0, 400)}`);
      return out.data;
    };
    // BENCH_DEPLOYMENTS=<name,...> measures only those (all by default).
    const only = process.env.BENCH_DEPLOYMENTS?.split(',');
    for (const d of DEPLOYMENTS.filter((x) => !only || only.includes(x.name))) {
      const node = spawnService(['--roles', d.roles], env);
      try {
        const ready = await node.waitFor((l) => l.msg === 'node_ready' || l.msg === 'mcp_http_ready', 300_000);
        const pid = node.proc.pid!;
        await new Promise((r) => setTimeout(r, opts.settleMs));
        const idleMb = procMb(pid);
        const sampler = sampleTree(pid);
        const started = performance.now();
        await d.work?.run(tool, broker, ready.port as number | undefined);
        const workMs = performance.now() - started;
        const { peakTreeMb, nodeHwmMb } = sampler.stop();
        rows.push({
          name: d.name,
          roles: d.roles,
          idleMb,
          peakMb: Math.max(idleMb, peakTreeMb),
          nodeHwmMb,
          work: d.work?.doc ?? 'idle only',
          workMs,
        });
        console.log(`measured ${d.name}`);
      } finally {
        await node.kill();
      }
    }
  } finally {
    await caller?.stop();
    await db.drop();
    fs.rmSync(ws, { recursive: true, force: true });
  }
  return rows;
}

/** Prints one line per Deployment: idle, peak of the process tree, the node's own VmHWM, and the work. */
export function printPeaks(rows: PeakRow[]): void {
  console.log(
    `\nPer Deployment (own node on NATS + PostgreSQL, k8s env): resident MB idle, peak of node + engines, node VmHWM`,
  );
  console.log(`${'deployment'.padEnd(20)}${'idle'.padStart(7)}${'peak'.padStart(7)}${'hwm'.padStart(7)}  work`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(20)}${r.idleMb.toFixed(0).padStart(7)}${r.peakMb.toFixed(0).padStart(7)}${r.nodeHwmMb
        .toFixed(0)
        .padStart(7)}  ${r.work}${r.workMs > 1 ? ` (${(r.workMs / 1000).toFixed(1)} s)` : ''}`,
    );
}
