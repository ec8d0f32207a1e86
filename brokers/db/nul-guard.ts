import { ActorError } from '../errors.ts';

/** Whether a bound value holds U+0000 in a string, an array element, or (for json/jsonb) any key or string inside. */
function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      stack.push(...v);
    } else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof Date)) {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/**
 * The database port's last line (issue finding 5): PostgreSQL cannot store U+0000 in text or jsonb and answers SQLSTATE
 * 22021/22P05, which reached callers as a 500 with the server's text. Contracts refuse NUL first and name the field;
 * whatever slips past them is refused here with the catalogue's 422, naming the parameter, before the query is sent.
 */
export function refuseNulParams(params: readonly unknown[] | undefined): void {
  if (!params) return;
  for (let i = 0; i < params.length; i++) {
    if (holdsNul(params[i])) {
      throw ActorError.validation(
        [{ path: `$${i + 1}`, message: 'must not contain a NUL character' }],
        `invalid input: query parameter $${i + 1} contains a NUL character`,
      );
    }
  }
}
