import type { TaskFailure } from '../../../../workers/simfield/schemas.ts';
import { createSimFieldPool, type SimFieldPool } from '../../../../workers/simfield/pool.ts';
import { InvalidArgumentsError, ToolError } from '../tool.ts';

/** A simfield task's refusal as the kit's errors: bad input is invalid arguments, anything else a tool error. */
export function taskFailureAsToolError(f: TaskFailure): Error {
  return f.kind === 'invalid_arguments' ? new InvalidArgumentsError(f.message) : new ToolError(f.message);
}

/**
 * A simfield worker pool of the calling actor's own (STYLE R5: each actor that needs one creates its instance), whose
 * task refusals surface as tool errors.
 */
export function createToolSimFieldPool(opts: { maxThreads?: number } = {}): SimFieldPool {
  return createSimFieldPool({ ...opts, failure: taskFailureAsToolError });
}
