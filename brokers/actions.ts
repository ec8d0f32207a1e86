import type { ActionSchema, CallingOptions, Context, ServiceBroker } from 'moleculer';
import { CONTRACT_PARSE, type ContractParse } from './validator.ts';
import type { ActionDef, ActionInput, ActionParams, ActionResult } from '../contracts/define.ts';

/**
 * Builds a Moleculer action from its contract: params are validated by the zod schema (ContractValidation) and the
 * handler receives them typed, defaults applied.
 */
export function action<A extends ActionDef<any, any>>(
  def: A,
  handler: (params: ActionParams<A>, ctx: Context<ActionParams<A>>) => Promise<ActionResult<A>> | ActionResult<A>,
  extra: Omit<ActionSchema, 'handler' | 'params' | 'name'> = {},
): ActionSchema {
  const parse: ContractParse = (p) => def.params.safeParse(p);
  const schema: ActionSchema = {
    ...extra,
    handler(ctx: Context<ActionParams<A>>) {
      return handler(ctx.params, ctx);
    },
  };
  (schema as Record<string, unknown>)[CONTRACT_PARSE] = parse;
  return schema;
}

/** Anything that can call an action: a context inside an actor (STYLE R11), or the broker at an entry point. */
export type Caller = Pick<Context, 'call'> | Pick<ServiceBroker, 'call'>;

/** Typed call of a contract action. */
export function call<A extends ActionDef<any, any>>(
  via: Caller,
  def: A,
  params: ActionInput<A>,
  opts?: CallingOptions,
): Promise<ActionResult<A>> {
  return (via.call as (name: string, p: unknown, o?: CallingOptions) => Promise<ActionResult<A>>)(
    def.action,
    params,
    opts,
  );
}
