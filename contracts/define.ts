import type { z } from 'zod';

/**
 * One bus action, defined once (STYLE R2): its full name, params schema and result schema. Both the actor that
 * serves it and every caller import this object; nobody writes the action name as a bare string.
 */
export interface ActionDef<P extends z.ZodType, R extends z.ZodType> {
  readonly action: string;
  readonly params: P;
  readonly result: R;
}

export function defineAction<P extends z.ZodType, R extends z.ZodType>(
  action: string,
  params: P,
  result: R,
): ActionDef<P, R> {
  return { action, params, result };
}

/** Params a caller passes (defaults not yet applied). */
export type ActionInput<A> = A extends ActionDef<infer P, z.ZodType> ? z.input<P> : never;
/** Params the handler receives (validated, defaults applied). */
export type ActionParams<A> = A extends ActionDef<infer P, z.ZodType> ? z.output<P> : never;
/** What the action answers. */
export type ActionResult<A> = A extends ActionDef<z.ZodType, infer R> ? z.output<R> : never;

/** The short name inside the service (`projects.get` -> `get`). */
export function localName(def: { action: string }): string {
  return def.action.slice(def.action.lastIndexOf('.') + 1);
}
