import os from 'node:os';
import { Piscina } from 'piscina';
import type { TaskFailure } from './schemas.ts';
import type * as Tasks from './sim-field.worker.ts';

/**
 * The worker file: Node 22 strips types natively, so the TypeScript entry loads as is and the repository needs no build
 * step. Measured with `npm run bench:field` (2 cores, busy machine): first task including thread start, median of 5,
 * `.ts` 259-419 ms vs compiled `.js` 197-367 ms (type stripping costs ~50-60 ms once per thread); after loading, both
 * run the same JIT-compiled code. After the first task one thread stays warm (`minThreads: 1`), so later calls do not
 * pay the start. A compiled build (`*.js` here) picks the `.js` worker.
 */
const WORKER = new URL(`./sim-field.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

type TaskName = keyof typeof Tasks;
type TaskResult<N extends TaskName> = Exclude<ReturnType<(typeof Tasks)[N]>, TaskFailure>;

/** A task's refusal when the owner did not say how to report it: `kind` is the worker's (bad input or a tool failure). */
export class SimFieldTaskError extends Error {
  readonly kind: TaskFailure['kind'];
  constructor(failure: TaskFailure) {
    super(failure.message);
    this.name = 'SimFieldTaskError';
    this.kind = failure.kind;
  }
}

/** A simfield pool (field extraction, decks, mesh checks, face naming); each owner creates its own (STYLE R5). */
export interface SimFieldPool {
  /** Runs a named task; a task's refusal is thrown as `failure(refusal)`; an abort stops the thread. */
  run<N extends TaskName>(
    name: N,
    input: Parameters<(typeof Tasks)[N]>[0],
    signal?: AbortSignal,
  ): Promise<TaskResult<N>>;
  destroy(): Promise<void>;
  readonly threads: number;
}

/** How a pool is made: its size and how a task's refusal becomes the owner's error. */
export interface SimFieldPoolOptions {
  /** Default: the cores (field builds are CPU-bound; more threads only queue). */
  maxThreads?: number;
  /** The owner's error for a refusal (an adapter maps it to its tool errors); default SimFieldTaskError. */
  failure?: (failure: TaskFailure) => Error;
}

/**
 * Creates a pool. Threads start on the first task (a process hosting every role should not pay for a solver it never
 * calls); one then stays warm. Only an actor creates one, for itself (the solver adapter, the named-faces actor, the
 * cadkernel adapter's generate_mesh); none is shared across actors.
 */
export function createSimFieldPool(opts: SimFieldPoolOptions = {}): SimFieldPool {
  const maxThreads = opts.maxThreads ?? Math.max(1, os.availableParallelism());
  const failure = opts.failure ?? ((f: TaskFailure) => new SimFieldTaskError(f));
  let pool: Piscina | undefined;
  return {
    threads: maxThreads,
    async run(name, input, signal) {
      pool ??= new Piscina({
        filename: WORKER,
        minThreads: 1,
        maxThreads,
        idleTimeout: 60_000,
        maxQueue: maxThreads * 16,
      });
      const r = (await pool.run(input, { name, signal: signal ?? null })) as TaskResult<typeof name> | TaskFailure;
      if (r && typeof r === 'object' && 'ok' in r && r.ok === false && 'kind' in r) throw failure(r);
      return r as TaskResult<typeof name>;
    },
    destroy: async () => {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
