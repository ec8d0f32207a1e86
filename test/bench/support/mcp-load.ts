import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Headers of every Streamable HTTP request after `initialize` (notes/mcp-clients.md "SDK v1 client on the wire"). */
export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** One measured case: throughput, latency, and how many answers were not real successful tool results. */
export interface McpLoadResult {
  label: string;
  callsPerSec: number;
  p50ms: number;
  p99ms: number;
  /** Answers counted by the check below. */
  calls: number;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** 2xx answers that are a JSON-RPC error or an `isError` result (a benchmark of those is worthless). */
  rpcErrors: number;
}

/** Opens an MCP session (initialize + notifications/initialized) and returns its id. */
export async function openSession(base: string): Promise<string> {
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !session) throw new Error(`initialize failed: ${init.status} ${await init.text()}`);
  await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return session;
}

/** True when a response body is a successful JSON-RPC result that is not an `isError` tool result (cheap string checks). */
export function isGoodResult(body: string): boolean {
  return body.startsWith('{"jsonrpc":"2.0","id":1,"result":') && !body.includes('"isError":true');
}

/** Posts one call and returns its body; throws unless it is a successful result (used before measuring). */
export async function callOnce(url: string, body: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  if (res.status !== 200 || !isGoodResult(text)) throw new Error(`call failed: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** Retries `callOnce` until it succeeds (an adapter on another node joins the registry a moment after start). */
export async function untilCallable(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = 20_000,
): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await callOnce(url, body, headers);
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The value at quantile `q` (0..1) of unsorted samples. */
function quantile(samples: number[], q: number): number {
  if (!samples.length) return NaN;
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * POSTs one pre-built body on `connections` keep-alive connections for `seconds`, each sending its next call when the
 * last one is answered, checking every answer. Latency percentiles come from each response's own time (autocannon's
 * histogram has 1 ms resolution, too coarse here).
 */
export async function mcpLoad(
  label: string,
  opts: { url: string; body: string; headers: Record<string, string>; connections?: number; seconds: number },
): Promise<McpLoadResult> {
  let calls = 0;
  let rpcErrors = 0;
  const latencies: number[] = [];
  const options: autocannon.Options = {
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.seconds,
    requests: [
      {
        method: 'POST',
        body: opts.body,
        headers: opts.headers,
        onResponse: (status, body) => {
          calls++;
          if (status < 300 && !isGoodResult(body)) rpcErrors++;
        },
      },
    ],
  };
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
    run.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return {
    label,
    callsPerSec: r.requests.average,
    p50ms: quantile(latencies, 0.5),
    p99ms: quantile(latencies, 0.99),
    calls,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    rpcErrors,
  };
}

/** Starts test/bench/support/bare-server.ts (a node:http JSON-RPC echo answering `result`) as a child process. */
export async function startBare(result: unknown): Promise<{ url: string; stop(): void }> {
  const bare = await startChildServer('bare-server.ts', [JSON.stringify(result)]);
  return { ...bare, url: `${bare.url}/mcp` };
}

/** Starts one of the bench's bare servers (a script here printing its port on stdout) as a child process; `url` is its base. */
export async function startChildServer(script: string, args: string[]): Promise<{ url: string; stop(): void }> {
  const proc = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) =>
    readline.createInterface({ input: proc.stdout! }).once('line', resolve),
  );
  return { url: `http://127.0.0.1:${line.trim()}`, stop: () => proc.kill('SIGKILL') };
}

/** Prints one row per case with its ratio to the baseline (bare node:http) and the count of bad answers. */
export function printMcpTable(rows: McpLoadResult[], baseline: McpLoadResult): void {
  const col = (s: string, w = 10) => s.padStart(w);
  process.stdout.write(
    `${'case'.padEnd(46)}${col('calls/s')}${col('p50 ms')}${col('p99 ms')}${col('x bare/s')}${col('x bare p50', 12)}${col('bad', 8)}\n`,
  );
  for (const r of rows) {
    const bad = r.non2xx + r.errors + r.rpcErrors;
    process.stdout.write(
      `${r.label.padEnd(46)}${col(r.callsPerSec.toFixed(0))}${col(r.p50ms.toFixed(2))}${col(r.p99ms.toFixed(2))}` +
        `${col((r.callsPerSec / baseline.callsPerSec).toFixed(2))}${col((r.p50ms / Math.max(baseline.p50ms, 0.01)).toFixed(1), 12)}${col(String(bad), 8)}\n`,
    );
  }
}
