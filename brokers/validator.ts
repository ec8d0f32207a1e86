import type { Middleware } from 'moleculer';
import type { z } from 'zod';
import { toValidationIssues } from '../contracts/index.ts';
import { ActorError } from './errors.ts';

/** Key of the parse function `action()` puts on an action schema. A function, because Moleculer clones schemas. */
export const CONTRACT_PARSE = 'contractParse';

/** The parse function stored on an action: validated params with defaults applied, or the zod error. */
export type ContractParse = (params: unknown) => z.ZodSafeParseResult<unknown>;

/**
 * Validates action params against their zod contract (STYLE R1) before the handler runs, and replaces `ctx.params`
 * with the parsed value (defaults applied). Plain fastest-validator `params` schemas keep working beside it.
 * A failure is a VALIDATION_FAILED ActorError naming each field.
 */
export function createContractValidation(): Middleware {
  return {
    name: 'ContractValidation',
    localAction(next: (ctx: { params: unknown }) => Promise<unknown>, action: Record<string, unknown>) {
      const parse = action[CONTRACT_PARSE] as ContractParse | undefined;
      if (typeof parse !== 'function') return next;
      return function validated(ctx: { params: unknown }) {
        const res = parse(ctx.params ?? {});
        if (!res.success) {
          return Promise.reject(ActorError.validation(toValidationIssues(res.error)));
        }
        ctx.params = res.data;
        return next(ctx);
      };
    },
  } as unknown as Middleware;
}
