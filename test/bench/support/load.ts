import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSec: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
}

/** Drives `url` with `connections` concurrent keep-alive connections for `seconds` and reports latency and throughput. */
export async function load(
  label: string,
  opts: {
    url: string;
    connections?: number;
    seconds?: number;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
  },
): Promise<LoadResult> {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 50,
    duration: opts.seconds ?? 10,
    method: (opts.method ?? 'GET') as 'GET',
    body: opts.body,
    headers: opts.headers,
  });
  return {
    label,
    requestsPerSec: r.requests.average,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

export function printTable(rows: LoadResult[], baseline: LoadResult): void {
  const fmt = (n: number, d = 1) => n.toFixed(d).padStart(10);
  process.stdout.write(
    `${'case'.padEnd(44)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'ratio'.padStart(10)}${'non2xx'.padStart(8)}\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `${r.label.padEnd(44)}${fmt(r.requestsPerSec, 0)}${fmt(r.p50ms)}${fmt(r.p99ms)}${fmt(r.requestsPerSec / baseline.requestsPerSec, 2)}${String(r.non2xx + r.errors).padStart(8)}\n`,
    );
  }
}
