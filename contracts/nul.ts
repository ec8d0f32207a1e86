/** Deepest nesting of a JSON value the service accepts (a body, tool arguments); deeper is refused, never recursed into. */
export const MAX_JSON_DEPTH = 64;

/** Where a value breaks the input rules: a dotted path and what is wrong there. */
export interface InputProblem {
  path: string;
  message: string;
}

/**
 * A UTF-16 surrogate without its pair (JSON lets `"\ud800"` through): not Unicode text. PostgreSQL refuses it in jsonb
 * (SQLSTATE 22P02, "Unicode low surrogate must follow a high surrogate") and a text column would store U+FFFD instead.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, 'g');
/** A path with its NUL characters and lone surrogates spelled as `\uXXXX` escapes (paired surrogates stay). */
const visible = (s: string) => s.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What is wrong with a string value or key as text the service stores, if anything. */
function badText(s: string): string | undefined {
  if (s.includes('\u0000')) return 'a NUL character';
  if (LONE_SURROGATE.test(s)) return 'an unpaired surrogate (not Unicode text)';
  return undefined;
}

/**
 * Finds the first string (value or key) holding a NUL character or an unpaired surrogate, or a nesting deeper than
 * `MAX_JSON_DEPTH`, in a parsed JSON value. PostgreSQL cannot store U+0000 in text or jsonb (SQLSTATE 22021/22P05)
 * nor a lone surrogate in jsonb (22P02), so such input is refused at the contract with the field named (it was a 500).
 * Iterative: an over-deep value cannot overflow the stack.
 */
export function findNulOrDepth(value: unknown, root: string): InputProblem | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      const bad = badText(v);
      if (bad) return { path, message: `must not contain ${bad}` };
      continue;
    }
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) continue;
    if (depth >= MAX_JSON_DEPTH) return { path, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const at = path ? `${path}.${key}` : key;
      const bad = badText(key);
      if (bad) return { path: visible(at), message: `is a key that contains ${bad}` };
      stack.push([child, at, depth + 1]);
    }
  }
  return undefined;
}
