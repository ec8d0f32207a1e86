import os from 'node:os';
import { KernelPool } from './pool.ts';

/**
 * Where the pool reports thread recycling and warm-up: the holder's pino logger, passed in (workers never import
 * brokers/; any object-first logger fits).
 */
export interface KernelPoolLog {
  info(obj: object, msg: string): void;
}

/** The configuration a kernel pool is sized from (brokers/config.ts). */
export interface KernelPoolConfig {
  SERVICE_CAD_THREADS?: number;
  SERVICE_CAD_HEAP_RECYCLE_MB: number;
}

let shared: { pool: KernelPool; refs: number; warm: Promise<number[]> } | undefined;

/**
 * The process's one kernel pool, shared by the cadscript and cadkernel adapters and the cadsessions actor (one
 * kernel per thread, threads = cores by default). The first holder creates and warms it; the last release closes it.
 */
export function acquireKernelPool(
  config: KernelPoolConfig,
  log: KernelPoolLog,
): { pool: KernelPool; warm: Promise<number[]> } {
  if (!shared) {
    const pool = new KernelPool({
      threads: config.SERVICE_CAD_THREADS ?? os.availableParallelism(),
      recycleHeapBytes: config.SERVICE_CAD_HEAP_RECYCLE_MB * 2 ** 20,
      recycleAfterTasks: 2000,
      maxOldGenerationSizeMb: 1024,
      onRecycle: (slot, reason) => log.info({ slot, reason }, 'cad kernel thread replaced'),
    });
    const warm = pool.warm();
    warm.then(
      (ms) => log.info({ init_ms: ms.map(Math.round) }, 'cad kernel threads warm'),
      () => undefined,
    );
    shared = { pool, refs: 0, warm };
  }
  shared.refs++;
  return { pool: shared.pool, warm: shared.warm };
}

/** Releases a hold on the shared pool; the last release terminates its threads. */
export async function releaseKernelPool(pool: KernelPool): Promise<void> {
  if (!shared || shared.pool !== pool) return;
  if (--shared.refs > 0) return;
  shared = undefined;
  await pool.close();
}
