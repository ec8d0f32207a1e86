import os from 'node:os';
import { KernelPool } from './pool.ts';

/**
 * Where the pool reports thread recycling and idle release: the holder's pino logger, passed in (workers never import
 * brokers/; any object-first logger fits).
 */
export interface KernelPoolLog {
  info(obj: object, msg: string): void;
}

/** The configuration a kernel pool is sized from (brokers/config.ts). */
export interface KernelPoolConfig {
  SERVICE_CAD_THREADS?: number;
  SERVICE_CAD_HEAP_RECYCLE_MB: number;
  SERVICE_CAD_IDLE_MS: number;
}

let shared: { pool: KernelPool; refs: number } | undefined;

/**
 * The process's one kernel pool, shared by the cadscript and cadkernel adapters and the cadsessions actor (one
 * kernel per thread, threads = cores by default). The first holder creates it, the last release closes it. Creating
 * it starts no thread: each starts (~250 MB, 0.3-1 s) on the first task its slot gets and is released after
 * SERVICE_CAD_IDLE_MS without one, so an idle node holds no kernel (README "Benchmarks", bench:memory).
 */
export function acquireKernelPool(config: KernelPoolConfig, log: KernelPoolLog): { pool: KernelPool } {
  if (!shared) {
    const pool = new KernelPool({
      threads: config.SERVICE_CAD_THREADS ?? os.availableParallelism(),
      recycleHeapBytes: config.SERVICE_CAD_HEAP_RECYCLE_MB * 2 ** 20,
      recycleAfterTasks: 2000,
      maxOldGenerationSizeMb: 1024,
      idleMs: config.SERVICE_CAD_IDLE_MS,
      onRecycle: (slot, reason) => log.info({ slot, reason }, 'cad kernel thread replaced'),
      onRelease: (slot) =>
        log.info({ slot, idle_ms: config.SERVICE_CAD_IDLE_MS }, 'cad kernel thread released when idle'),
    });
    shared = { pool, refs: 0 };
  }
  shared.refs++;
  return { pool: shared.pool };
}

/** The process's kernel pool while an actor holds it (tests and benches read its thread count); never creates one. */
export function currentKernelPool(): KernelPool | undefined {
  return shared?.pool;
}

/** Releases a hold on the shared pool; the last release terminates its threads. */
export async function releaseKernelPool(pool: KernelPool): Promise<void> {
  if (!shared || shared.pool !== pool) return;
  if (--shared.refs > 0) return;
  shared = undefined;
  await pool.close();
}
