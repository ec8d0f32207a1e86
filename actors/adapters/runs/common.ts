import { ActorError } from '../../../brokers/errors.ts';
import { InvalidArgumentsError, ToolError } from '../kit/tool.ts';

/**
 * Runs an actor call for a flow tool: a refusal the caller can act on (unknown run, invalid patch, not approved,
 * stale, gate not ready) becomes a tool error naming it; the same answer in-process and remote (SPEC Twin/CAD rule 12).
 */
export async function flowCall<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (!(err instanceof ActorError)) throw err;
    const details = { code: err.type, ...((err.data as Record<string, unknown>) ?? {}) };
    if (err.type === 'VALIDATION_FAILED') throw new InvalidArgumentsError(err.message, details);
    if (['NOT_FOUND', 'CONFLICT', 'PATCH_CONFLICT', 'STALE_REVISION'].includes(err.type))
      throw new ToolError(err.message, details);
    throw err;
  }
}
