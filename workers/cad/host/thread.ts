import { Worker } from 'node:worker_threads';
import { KernelTaskError, type KernelFailure, type KernelReply } from './protocol.ts';

const WORKER_URL = new URL(`../kernel.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Limits of a kernel thread's JS heap (the wasm heap is watched by the pool and recycled past its threshold). */
export interface ThreadLimits {
  maxOldGenerationSizeMb: number;
}

/**
 * One long-lived kernel thread: spawns `kernel.worker.ts`, resolves `ready` when the kernel is initialised and warm,
 * runs tasks and matches replies by id. When the thread dies (killed, out of memory, wasm abort) every pending task is
 * rejected with a `crash` (or the kill's reason) and `dead` is set; the pool replaces it.
 */
export class KernelThread {
  readonly ready: Promise<number>;
  /** Wasm heap bytes after the last task. */
  heapBytes = 0;
  /** Tasks run by this thread. */
  tasks = 0;
  dead = false;
  /** The thread asked to be replaced (a script changed its shared objects). */
  retire = false;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private killReason: KernelFailure | undefined;

  constructor(limits: ThreadLimits, onExit: (t: KernelThread, failure: KernelFailure) => void) {
    // stdout/stderr piped and drained: a kernel that prints must never write into a stdio MCP stream.
    this.worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb },
      stdout: true,
      stderr: true,
    });
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.ready = new Promise<number>((resolve, reject) => {
      this.worker.once('message', (m: KernelReply) => {
        if (m.type === 'ready') {
          this.heapBytes = m.heap_bytes;
          resolve(m.init_ms);
        }
        this.worker.on('message', (r: KernelReply) => this.onReply(r));
      });
      this.worker.once('exit', () =>
        reject(
          new KernelTaskError(
            this.killReason ?? { kind: 'unavailable', message: 'the CAD kernel thread exited while starting' },
          ),
        ),
      );
    });
    this.ready.catch(() => undefined);
    this.worker.on('error', (err) => {
      this.killReason ??= {
        kind: 'crash',
        message: `the CAD kernel thread failed: ${(err as Error).message}`,
        details: { code: (err as NodeJS.ErrnoException).code },
      };
    });
    this.worker.on('exit', (code) => {
      this.dead = true;
      const failure = this.killReason ?? { kind: 'crash', message: `the CAD kernel thread exited (code ${code})` };
      for (const p of this.pending.values()) p.reject(new KernelTaskError(failure));
      this.pending.clear();
      onExit(this, failure);
    });
  }

  private onReply(r: KernelReply): void {
    if (r.type !== 'result') return;
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    this.heapBytes = r.heap_bytes;
    if (r.retire) this.retire = true;
    if (r.ok) p.resolve(r.value);
    else p.reject(new KernelTaskError(r.error));
  }

  /** Runs a task on this thread (after `ready`); rejects with a KernelTaskError. */
  async run(task: string, input: unknown): Promise<unknown> {
    await this.ready;
    if (this.dead)
      throw new KernelTaskError(this.killReason ?? { kind: 'crash', message: 'the CAD kernel thread is gone' });
    this.tasks++;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, task, input });
    });
  }

  /** Terminates the thread; pending tasks fail with `reason`. */
  async kill(reason: KernelFailure): Promise<void> {
    this.killReason ??= reason;
    await this.worker.terminate();
    this.dead = true;
  }
}
