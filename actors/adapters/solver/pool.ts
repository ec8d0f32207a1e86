import os from 'node:os';
import { Piscina } from 'piscina';
import type { TaskFailure } from '../../../workers/simfield/schemas.ts';
import type * as Tasks from '../../../workers/simfield/sim-field.worker.ts';
import { InvalidArgumentsError, ToolError } from '../kit/tool.ts';

/**
 * The worker file: Node 22 strips types natively, so the TypeScript entry loads as is and the repository needs no build
 * step. Measured with `npm run bench:field` (2 cores, busy machine): first task including thread start, median of 5,
 * `.ts` 259-419 ms vs compiled `.js` 197-367 ms (type stripping costs ~50-60 ms once per thread); after loading, both
 * run the same JIT-compiled code. After the first task one thread stays warm (`minThreads: 1`), so later calls do not
 * pay the start. A compiled build (`*.js` here) picks the `.js` worker.
 */
const WORKER = new URL(`../../../workers/simfield/sim-field.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

type TaskName = keyof typeof Tasks;
type TaskResult<N extends TaskName> = Exclude<ReturnType<(typeof Tasks)[N]>, TaskFailure>;

/** The solver adapter's piscina pool (the only owner of one, STYLE R5): field extraction, decks, mesh checks. */
export interface SimFieldPool {
  /** Runs a named task; a task's refusal becomes InvalidArgumentsError or ToolError; an abort stops the thread. */
  run<N extends TaskName>(name: N, input: Parameters<(typeof Tasks)[N]>[0], signal?: AbortSignal): Promise<TaskResult<N>>;
  destroy(): Promise<void>;
  readonly threads: number;
}

/**
 * Creates the pool: `maxThreads` = the cores (field builds are CPU-bound; more threads only queue). Threads start on the
 * first task (a process hosting every role should not pay for a solver it never calls); one then stays warm.
 */
export function createSimFieldPool(opts: { maxThreads?: number } = {}): SimFieldPool {
  const maxThreads = opts.maxThreads ?? Math.max(1, os.availableParallelism());
  let pool: Piscina | undefined;
  return {
    threads: maxThreads,
    async run(name, input, signal) {
      pool ??= new Piscina({ filename: WORKER, minThreads: 1, maxThreads, idleTimeout: 60_000, maxQueue: maxThreads * 16 });
      const r = (await pool.run(input, { name, signal: signal ?? null })) as TaskResult<typeof name> | TaskFailure;
      if (r && typeof r === 'object' && 'ok' in r && r.ok === false && 'kind' in r) {
        throw r.kind === 'invalid_arguments' ? new InvalidArgumentsError(r.message) : new ToolError(r.message);
      }
      return r as TaskResult<typeof name>;
    },
    destroy: async () => {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
