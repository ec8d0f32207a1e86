// npm run bench:await-gate — issue 18's "flow.await_gate returns within 1 s for a client without elicitation", measured
// through the real surface: the service command (embedded, PGlite in memory) and the official MCP SDK client over
// Streamable HTTP, declaring no elicitation capability. For each of BENCH_RUNS (20) mech_v1 runs: start it (POST /v1/runs), wait (by
// polling flow.status) until its first gate is open, then time one `flow.await_gate {wait_seconds: 30}` (the answer
// must be `awaiting_gate` and nothing may be asked of the client) and, as the floor in the same run, one
// `flow.status` of the same run (one MCP round trip that reads the run). Prints p50, p99 and max of both and the ratio.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { spawnService } from '../support/spawn.ts';
import { until } from './support/until.ts';

const runs = Number(process.env.BENCH_RUNS ?? 20);
const TARGET_MS = 1000;

const service = spawnService(['--port', '0'], { SERVICE_DATA_DIR: 'memory://' });
const ready = await service.waitFor('mcp_http_ready', 120_000);
const client = new Client({ name: 'bench-no-elicitation', version: '1.0.0' }, { capabilities: {} });
const asked: unknown[] = [];
client.fallbackRequestHandler = async (req) => {
  asked.push(req);
  return {};
};
const base = `http://127.0.0.1:${ready.port as number}`;
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));

type Data = Record<string, any>;
async function tool(name: string, args: Record<string, unknown>): Promise<Data> {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`);
  return res.structuredContent as Data;
}
async function timed(name: string, args: Record<string, unknown>): Promise<[number, Data]> {
  const t0 = performance.now();
  const data = await tool(name, args);
  return [performance.now() - t0, data];
}

const awaitMs: number[] = [];
const statusMs: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    // Started over HTTP (as a person does; an agent's remote flow.start_run is held for a person's approval).
    const post = await fetch(`${base}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ design_flow: 'mech_v1', project_id: `p-bench-gate-${i}`, goal: 'a steel bracket' }),
    });
    if (post.status !== 201) throw new Error(`starting a run: ${post.status} ${await post.text()}`);
    const run = (await post.json()) as { id: string };
    // The gate opens once the intent phase has run; the bench times the answer at an open gate, not the phase.
    await until(async () => ((await tool('flow.status', { run_id: run.id })).open_gate ? true : undefined), {
      what: `run ${run.id}: its first gate open`,
      timeoutMs: 30_000,
    });
    const [waited, answer] = await timed('flow.await_gate', { run_id: run.id, wait_seconds: 30 });
    if (answer.status !== 'awaiting_gate') throw new Error(`await_gate answered ${JSON.stringify(answer)}`);
    const [read] = await timed('flow.status', { run_id: run.id });
    awaitMs.push(waited);
    statusMs.push(read);
  }
} finally {
  await client.close();
  await service.kill('SIGTERM');
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const row = (label: string, xs: number[]) =>
  `${label.padEnd(44)} p50 ${pct(xs, 0.5).toFixed(1).padStart(7)} ms  p99 ${pct(xs, 0.99).toFixed(1).padStart(7)} ms  max ${Math.max(
    ...xs,
  )
    .toFixed(1)
    .padStart(7)} ms\n`;
process.stdout.write(
  `\nbench:await-gate  ${runs} mech_v1 runs, SDK client without elicitation, ${os.availableParallelism()} cores, Node ${process.version}\n`,
);
process.stdout.write(row('flow.await_gate at an open gate', awaitMs));
process.stdout.write(row('floor: flow.status of the same run', statusMs));
const worst = Math.max(...awaitMs);
process.stdout.write(
  `ratio p50 ${(pct(awaitMs, 0.5) / pct(statusMs, 0.5)).toFixed(2)}x the floor; target: every answer < ${TARGET_MS} ms -> ` +
    `max ${worst.toFixed(1)} ms ${worst < TARGET_MS ? 'met' : 'MISSED'}; elicitation requests sent: ${asked.length}\n`,
);
if (asked.length) process.exitCode = 1;
