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
  /** Called when a thread is replaced, with the reason (recycle, crash, kill). */
  onRecycle?(slot: number, reason: string): void;
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
  lastError?: string;
}

/**
 * The kernel threads of a process (notes "Service layout"): a fixed set of slots, each one long-lived worker thread
 * running one task at a time. Stateless tasks go to the shortest queue; a session's tasks always go to the slot its
 * id hashes to, so its shapes stay in one heap. A task whose caller aborts (deadline, cancel) kills its thread; a
 * thread whose wasm heap passed the threshold (or ran too many tasks) is replaced between tasks; a crashed thread is
 * replaced on the next task. Session documents lost that way are rebuilt by their owner from the feature history.
 */
export class KernelPool {
  private readonly slots: Slot[];
  private closed = false;
  readonly opts: KernelPoolOptions;

  constructor(opts: KernelPoolOptions) {
    this.opts = opts;
    this.slots = Array.from({ length: Math.max(1, opts.threads) }, () => ({ queue: [], busy: false, generation: 0 }));
  }

  /** Starts every thread and waits until each kernel is initialised and warm; returns the init times in ms. */
  async warm(): Promise<number[]> {
    return Promise.all(this.slots.map((s) => this.threadOf(s).ready.catch(() => -1)));
  }

  /** The slot a key (a session id) is pinned to. */
  slotFor(key: string): number {
    return crypto.createHash('sha1').update(key).digest().readUInt32BE(0) % this.slots.length;
  }

  /** Runs a task; `slot` pins it (sessions), otherwise the least busy slot takes it. */
  run<K extends TaskName>(
    task: K,
    input: TaskInput<K>,
    opts: { signal?: AbortSignal; slot?: number } = {},
  ): Promise<TaskOutput<K>> {
    if (this.closed)
      return Promise.reject(new KernelTaskError({ kind: 'unavailable', message: 'the CAD kernel pool is closed' }));
    const slot = this.slots[opts.slot ?? this.leastBusy()];
    return new Promise<TaskOutput<K>>((resolve, reject) => {
      slot.queue.push({ task, input, signal: opts.signal, resolve: resolve as (v: unknown) => void, reject });
      void this.pump(slot);
    });
  }

  /** Per slot: generation, queue length, wasm heap and task count of its current thread. */
  stats() {
    return this.slots.map((s, i) => ({
      slot: i,
      generation: s.generation,
      queued: s.queue.length,
      busy: s.busy,
      heap_bytes: s.thread?.heapBytes ?? 0,
      tasks: s.thread?.tasks ?? 0,
      last_error: s.lastError ?? null,
    }));
  }

  /** Why the kernel cannot start, when no thread has ever become ready and the last start failed. */
  startupError(): string | undefined {
    return this.slots.every((s) => s.lastError) ? this.slots[0].lastError : undefined;
  }

  /** Terminates every thread; queued tasks fail as unavailable. */
  async close(): Promise<void> {
    this.closed = true;
    const failure: KernelFailure = { kind: 'unavailable', message: 'the CAD kernel pool was closed' };
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
      slot.thread = new KernelThread(this.opts, (t, failure) => {
        if (slot.thread === t) this.opts.onRecycle?.(i, failure.message);
      });
      slot.thread.ready.then(
        () => (slot.lastError = undefined),
        (err: Error) => (slot.lastError = err.message),
      );
    }
    return slot.thread;
  }

  private async pump(slot: Slot): Promise<void> {
    if (slot.busy) return;
    const job = slot.queue.shift();
    if (!job) return;
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
