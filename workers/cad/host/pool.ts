import crypto from 'node:crypto';
import type { KernelTasks } from '../tasks.ts';
import { KernelTaskError, type KernelFailure } from './protocol.ts';
import { KernelThread, type ThreadLimits } from './thread.ts';

/** Sizing and recycling of the kernel threads of one process. */
export interface KernelPoolOptions extends ThreadLimits {
  threads: number;
  /** Recycle a thread once its wasm heap passes this many bytes (it starts at 100 MB and never shrinks). */
  recycleHeapBytes: number;
  /** Backstop: recycle after this many tasks. */
  recycleAfterTasks: number;
  /**
   * A thread with nothing to do for this long is terminated (its ~250 MB go back to the OS); the next task starts a
   * fresh one. 0 or unset: threads stay until the pool closes.
   */
  idleMs?: number;
  /** Called when a thread is replaced, with the reason (recycle, crash, kill). */
  onRecycle?(slot: number, reason: string): void;
  /** Called when an idle thread is released (not a failure: sessions pinned to it replay on their next call). */
  onRelease?(slot: number): void;
}

type TaskName = keyof KernelTasks;
type TaskInput<K extends TaskName> = Parameters<KernelTasks[K]>[0];
type TaskOutput<K extends TaskName> = Awaited<ReturnType<KernelTasks[K]>>;

interface Job {
  task: string;
  input: unknown;
  signal?: AbortSignal;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  thread?: KernelThread;
  queue: Job[];
  busy: boolean;
  /** Threads this slot has had; a session pinned here replays its history on a new generation. */
  generation: number;
  /** Armed while the slot's thread is idle; it releases the thread when it fires. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * The kernel threads of a process (notes "Service layout"): a fixed set of slots, each one worker thread running one
 * task at a time. A slot's thread starts on its first task (a node that never models pays nothing for the kernel) and
 * is released after `idleMs` without work. Stateless tasks go to the shortest queue; a session's tasks always go to the
 * slot its id hashes to, so its shapes stay in one heap. A task whose caller aborts (deadline, cancel) kills its
 * thread; a thread whose wasm heap passed the threshold (or ran too many tasks) is replaced between tasks; a crashed
 * thread is replaced on the next task. Session documents lost that way are rebuilt by their owner from the feature
 * history.
 */
export class KernelPool {
  private readonly slots: Slot[];
  private closed = false;
  /** Why the last thread start failed; cleared by the next start that succeeds. */
  private lastStartError: string | undefined;
  readonly opts: KernelPoolOptions;

  constructor(opts: KernelPoolOptions) {
    this.opts = opts;
    this.slots = Array.from({ length: Math.max(1, opts.threads) }, () => ({ queue: [], busy: false, generation: 0 }));
  }

  /**
   * Starts every thread and waits until each kernel is initialised and warm; returns the init times in ms (-1 for a
   * thread that did not start). Benches and tests only: a node starts threads on first use. Idle release applies.
   */
  async warm(): Promise<number[]> {
    return Promise.all(
      this.slots.map((s) => {
        const t = this.threadOf(s);
        return t.ready.then(
          (ms) => {
            if (!s.busy && !s.queue.length) this.armIdle(s);
            return ms;
          },
          () => -1,
        );
      }),
    );
  }

  /** The slot a key (a session id) is pinned to. */
  slotFor(key: string): number {
    return crypto.createHash('sha1').update(key).digest().readUInt32BE(0) % this.slots.length;
  }

  /**
   * Runs a task; `slot` pins it (sessions), otherwise the least busy slot takes it. With `ifRunning` a pinned slot
   * without a thread answers undefined instead of starting one (dropping a document from a heap that is gone).
   */
  run<K extends TaskName>(
    task: K,
    input: TaskInput<K>,
    opts?: { signal?: AbortSignal; slot?: number; ifRunning?: false },
  ): Promise<TaskOutput<K>>;
  run<K extends TaskName>(
    task: K,
    input: TaskInput<K>,
    opts: { signal?: AbortSignal; slot: number; ifRunning: true },
  ): Promise<TaskOutput<K> | undefined>;
  run<K extends TaskName>(
    task: K,
    input: TaskInput<K>,
    opts: { signal?: AbortSignal; slot?: number; ifRunning?: boolean } = {},
  ): Promise<TaskOutput<K> | undefined> {
    if (this.closed)
      return Promise.reject(new KernelTaskError({ kind: 'unavailable', message: 'the CAD kernel pool is closed' }));
    const slot = this.slots[opts.slot ?? this.leastBusy()];
    if (opts.ifRunning && (!slot.thread || slot.thread.dead)) return Promise.resolve(undefined);
    clearTimeout(slot.idleTimer);
    return new Promise<TaskOutput<K>>((resolve, reject) => {
      slot.queue.push({ task, input, signal: opts.signal, resolve: resolve as (v: unknown) => void, reject });
      void this.pump(slot);
    });
  }

  /** Per slot: generation, whether a thread is running, queue length, wasm heap and task count of its current thread. */
  stats() {
    return this.slots.map((s, i) => ({
      slot: i,
      generation: s.generation,
      running: Boolean(s.thread && !s.thread.dead),
      queued: s.queue.length,
      busy: s.busy,
      heap_bytes: s.thread?.heapBytes ?? 0,
      tasks: s.thread?.tasks ?? 0,
    }));
  }

  /** Kernel threads alive now (starting, working or idle); 0 before the first task and after every idle release. */
  runningThreads(): number {
    return this.slots.filter((s) => s.thread && !s.thread.dead).length;
  }

  /**
   * Why the kernel cannot start: the error of the last thread start, when it failed (none since succeeded). Never
   * starts a thread, so a health check reads it without loading the kernel; undefined before any start.
   */
  startupError(): string | undefined {
    return this.lastStartError;
  }

  /** Terminates every thread; queued tasks fail as unavailable. */
  async close(): Promise<void> {
    this.closed = true;
    const failure: KernelFailure = { kind: 'unavailable', message: 'the CAD kernel pool was closed' };
    for (const s of this.slots) clearTimeout(s.idleTimer);
    for (const s of this.slots) for (const j of s.queue.splice(0)) j.reject(new KernelTaskError(failure));
    await Promise.all(this.slots.map((s) => s.thread?.kill(failure)));
  }

  private leastBusy(): number {
    let best = 0;
    const load = (s: Slot) => s.queue.length + (s.busy ? 1 : 0);
    for (let i = 1; i < this.slots.length; i++) if (load(this.slots[i]) < load(this.slots[best])) best = i;
    return best;
  }

  private threadOf(slot: Slot): KernelThread {
    if (!slot.thread || slot.thread.dead) {
      if (slot.thread) slot.generation++;
      const i = this.slots.indexOf(slot);
      const t = new KernelThread(this.opts, (dead, failure) => {
        if (slot.thread === dead) this.opts.onRecycle?.(i, failure.message);
      });
      slot.thread = t;
      t.ready.then(
        () => (this.lastStartError = undefined),
        // A thread released or replaced while it started did not fail to start.
        (err: Error) => {
          if (slot.thread === t) this.lastStartError = err.message;
        },
      );
    }
    return slot.thread;
  }

  /** Arms the slot's idle release: its thread goes if the slot is still without work when the timer fires. */
  private armIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    const t = slot.thread;
    if (!this.opts.idleMs || this.closed || !t || t.dead) return;
    slot.idleTimer = setTimeout(() => {
      if (slot.busy || slot.queue.length || slot.thread !== t || this.closed) return;
      slot.thread = undefined;
      slot.generation++;
      this.opts.onRelease?.(this.slots.indexOf(slot));
      void t.kill({ kind: 'unavailable', message: 'the CAD kernel thread was released after an idle period' });
    }, this.opts.idleMs);
    // An idle pool never keeps the process alive.
    slot.idleTimer.unref();
  }

  private async pump(slot: Slot): Promise<void> {
    if (slot.busy) return;
    const job = slot.queue.shift();
    if (!job) return this.armIdle(slot);
    clearTimeout(slot.idleTimer);
    slot.busy = true;
    const thread = this.threadOf(slot);
    const onAbort = () =>
      void thread.kill({
        kind: 'aborted',
        message: `the CAD task was stopped: ${String((job.signal?.reason as Error)?.message ?? job.signal?.reason ?? 'aborted')}`,
      });
    try {
      if (job.signal?.aborted)
        throw new KernelTaskError({ kind: 'aborted', message: 'the CAD task was cancelled before it started' });
      job.signal?.addEventListener('abort', onAbort, { once: true });
      job.resolve(await thread.run(job.task, job.input));
    } catch (err) {
      job.reject(err as Error);
    } finally {
      job.signal?.removeEventListener('abort', onAbort);
      if (
        !thread.dead &&
        (thread.retire || thread.heapBytes > this.opts.recycleHeapBytes || thread.tasks >= this.opts.recycleAfterTasks)
      ) {
        const reason = thread.retire
          ? 'retired: a script changed its shared objects'
          : `recycled after ${thread.tasks} tasks with a ${Math.round(thread.heapBytes / 2 ** 20)} MB wasm heap`;
        await thread.kill({ kind: 'crash', message: reason });
      }
      slot.busy = false;
      // A replaced thread starts (and warms) right away, not on the next call.
      if (!this.closed && (thread.dead || slot.thread !== thread)) this.threadOf(slot);
      void this.pump(slot);
    }
  }
}
