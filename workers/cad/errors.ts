import { kernelErrorText } from './kernel.ts';

/** Kinds of failure a kernel task reports; the host maps them to tool errors (`tool`), invalid arguments (`invalid`). */
export type KernelFailureKind = 'tool' | 'invalid' | 'timeout';

/** A failure of a kernel operation that the caller should see as a tool error (never a crash of the thread). */
export class KernelError extends Error {
  override name = 'KernelError';
  readonly kind: KernelFailureKind;
  readonly details: Record<string, unknown> | undefined;
  constructor(message: string, details?: Record<string, unknown>, kind: KernelFailureKind = 'tool') {
    super(message);
    this.kind = kind;
    this.details = details;
  }
}

/** Arguments the kernel cannot work with (an unknown shape type, a missing parameter, an unknown object id). */
export class KernelArgumentError extends KernelError {
  override name = 'KernelArgumentError';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, details, 'invalid');
  }
}

/** Runs one kernel step; an OCCT exception becomes a KernelError naming the step and the kernel's words. */
export function step<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw wrapKernelError(what, err);
  }
}

/** Async variant of `step` (imports and exports that return promises). */
export async function stepAsync<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw wrapKernelError(what, err);
  }
}

function wrapKernelError(what: string, err: unknown): KernelError {
  if (err instanceof KernelError) return err;
  const text = kernelErrorText(err);
  return new KernelError(`${what} failed: ${text}`, { operation: what, kernel_error: text });
}
