import os from 'node:os';
import { Piscina } from 'piscina';
import type { ConvertOutcome, ConvertTask } from './convert.schemas.ts';

/** A running conversion longer than this is stopped (its thread is terminated) and answered 504. */
export const CONVERT_TIMEOUT_MS = 120_000;

/** The conversion pool's surface: run one task (rejects on timeout or a full queue), and close. */
export interface ConvertPool {
  run(task: ConvertTask, signal?: AbortSignal): Promise<ConvertOutcome>;
  close(): Promise<void>;
}

// The worker runs as TypeScript under Node 22 (type stripping) and as JavaScript once compiled (notes/runtime.md "piscina 5.3.2").
const WORKER = new URL(`./convert.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * The STEP/IGES → GLB worker pool. Its one owner is the gateway's `POST /v1/convert` and node-model routes: an upload
 * (up to SERVICE_UPLOAD_LIMIT_BYTES, 200 MB) is converted where it arrives instead of crossing the bus to an actor
 * (README code map, gateway). Threads = cores − 1 (at least 1):
 * the gateway shares the node with latency-sensitive request handling. Threads stay warm for 10 minutes (a cold first
 * file is ~4× slower); the queue is bounded for backpressure.
 */
export function createConvertPool(opts: { maxThreads?: number } = {}): ConvertPool {
  const pool = new Piscina({
    filename: WORKER.href,
    maxThreads: opts.maxThreads ?? Math.max(1, os.availableParallelism() - 1),
    minThreads: 1,
    idleTimeout: 10 * 60_000,
    maxQueue: 64,
  });
  return {
    run: (task, signal) => {
      const deadline = AbortSignal.timeout(CONVERT_TIMEOUT_MS);
      return pool.run(task, { name: 'convert', signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
    },
    close: () => pool.destroy(),
  };
}
