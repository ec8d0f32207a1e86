import type { z } from 'zod';
import { rpcError } from './errors.ts';

/** Parses a method's params; anything wrong is -32602 naming each field and what is wrong with it. */
export function parseParams<T extends z.ZodType>(schema: T, params: unknown, method: string): z.output<T> {
  const r = schema.safeParse(params ?? {});
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }));
    throw rpcError(
      'INVALID_PARAMS',
      `invalid params for ${method}: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      { validation_errors: issues },
    );
  }
  return r.data;
}
