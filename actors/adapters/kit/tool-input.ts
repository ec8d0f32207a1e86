import type { z } from 'zod';

/**
 * Why a tool's zod input cannot be trusted to its generated JSON Schema, or undefined when it can (ISSUE 13 point 3).
 * Arguments are validated once, by the registry against the JSON Schema, and reach the handler without a zod parse;
 * that is only sound when the JSON Schema says everything the zod schema says and the registry's `useDefaults` fills
 * every default. Not so for a refinement, a transform or a rewrite such as trim (JSON Schema cannot express them) and for a default inside
 * anyOf/oneOf/allOf/not (Ajv fills no defaults there). The adapter kit refuses such a tool when it is defined.
 */
export function untrustedInput(schema: z.ZodType, json: Record<string, unknown>): string | undefined {
  return zodProblem(schema, new Set()) ?? jsonProblem(json, false);
}

interface ZodInternals {
  _zod?: { def?: Record<string, unknown> & { type?: string; checks?: { _zod?: { def?: { check?: string } } }[] } };
}

const CHILD_KEYS = ['innerType', 'element', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'rest', 'valueType'];

function zodProblem(schema: unknown, seen: Set<unknown>): string | undefined {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return undefined;
  seen.add(schema);
  const def = (schema as ZodInternals)._zod?.def;
  if (!def) return undefined;
  if (def.type === 'transform' || def.type === 'pipe' || def.type === 'custom')
    return `its zod schema has a ${def.type}`;
  if (def.checks?.some((c) => c._zod?.def?.check === 'custom')) return 'its zod schema has a refinement';
  if (def.checks?.some((c) => c._zod?.def?.check === 'overwrite'))
    return 'its zod schema rewrites a value (trim, case)';
  const children: unknown[] = CHILD_KEYS.map((k) => def[k]);
  if (def.shape && typeof def.shape === 'object') children.push(...Object.values(def.shape as object));
  if (Array.isArray(def.options)) children.push(...(def.options as unknown[]));
  if (Array.isArray(def.items)) children.push(...(def.items as unknown[]));
  if (def.type === 'lazy' && typeof def.getter === 'function') children.push((def.getter as () => unknown)());
  for (const c of children) {
    const p = zodProblem(c, seen);
    if (p) return p;
  }
  return undefined;
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else']);

function jsonProblem(node: unknown, underCombinator: boolean): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const p = jsonProblem(n, underCombinator);
      if (p) return p;
    }
    return undefined;
  }
  const o = node as Record<string, unknown>;
  if (underCombinator && 'default' in o)
    return 'its JSON Schema has a default inside anyOf/oneOf/allOf/not, which no validator fills in';
  for (const [k, v] of Object.entries(o)) {
    if (k === 'default' || k === 'const' || k === 'enum' || k === 'examples') continue;
    const p = jsonProblem(v, underCombinator || COMBINATORS.has(k));
    if (p) return p;
  }
  return undefined;
}
