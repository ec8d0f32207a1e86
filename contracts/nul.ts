/** Deepest nesting of a JSON value the service accepts (a body, tool arguments); deeper is refused, never recursed into. */
export const MAX_JSON_DEPTH = 64;

/** Where a value breaks the input rules: a dotted path and what is wrong there. */
export interface InputProblem {
  path: string;
  message: string;
}

/**
 * Finds the first string (value or key) holding a NUL character, or a nesting deeper than `MAX_JSON_DEPTH`, in a
 * parsed JSON value. PostgreSQL cannot store U+0000 in text or jsonb (SQLSTATE 22021/22P05), so such input is refused
 * at the contract with the field named. Iterative: an over-deep value cannot overflow the stack.
 */
export function findNulOrDepth(value: unknown, root: string): InputProblem | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { path, message: 'must not contain a NUL character' };
      continue;
    }
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) continue;
    if (depth >= MAX_JSON_DEPTH) return { path, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000'))
        return { path: at.replace(/\u0000/g, '\\u0000'), message: 'is a key that contains a NUL character' };
      stack.push([child, at, depth + 1]);
    }
  }
  return undefined;
}
