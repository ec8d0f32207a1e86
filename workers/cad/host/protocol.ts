/** Messages between the host (an actor's process) and a kernel thread (`kernel.worker.ts`). */

/** A task for a kernel thread: the task name in `kernelTasks` and its structured-cloneable input. */
export interface KernelRequest {
  id: number;
  task: string;
  input: unknown;
}

/**
 * Why a kernel task failed: `tool` (the kernel refused or produced no valid result), `invalid` (arguments the kernel
 * cannot use), `timeout` (the script's own CPU limit), `internal` (a bug), `crash` (the thread died: out of memory,
 * wasm abort), `aborted` (the caller's deadline or cancel killed the thread), `unavailable` (the kernel did not start).
 */
export type KernelFailureKind = 'tool' | 'invalid' | 'timeout' | 'internal' | 'crash' | 'aborted' | 'unavailable';

/** A failure as it crosses the thread boundary. */
export interface KernelFailure {
  kind: KernelFailureKind;
  message: string;
  details?: Record<string, unknown>;
}

/** What a kernel thread posts: `ready` once after init, then one `result` per request, with the wasm heap size. */
export type KernelReply =
  | { type: 'ready'; init_ms: number; heap_bytes: number }
  | { type: 'result'; id: number; ok: true; value: unknown; heap_bytes: number; retire?: boolean }
  | { type: 'result'; id: number; ok: false; error: KernelFailure; heap_bytes: number; retire?: boolean };

/** A failed kernel task on the host side; adapters map `kind` to tool errors, invalid arguments or unavailability. */
export class KernelTaskError extends Error {
  override name = 'KernelTaskError';
  readonly kind: KernelFailureKind;
  readonly details: Record<string, unknown> | undefined;
  constructor(f: KernelFailure) {
    super(f.message);
    this.kind = f.kind;
    this.details = f.details;
  }
}
