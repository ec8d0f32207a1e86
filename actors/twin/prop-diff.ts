import type { PropertyChange } from '../../contracts/twin-views.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Leaf-by-leaf differences of two JSON values, paths dotted (`constraints.0.limit`): objects are descended by key,
 * arrays by index, anything else compared whole. Pure; the order is the sorted path order.
 */
export function diffProperties(from: unknown, to: unknown, path = ''): PropertyChange[] {
  if (jsonEqual(from, to)) return [];
  const bothObjects = isObject(from) && isObject(to);
  const bothArrays = Array.isArray(from) && Array.isArray(to);
  if (!bothObjects && !bothArrays) return [{ path: path || '(root)', change: 'changed', from, to }];
  const a = from as Record<string, unknown>;
  const b = to as Record<string, unknown>;
  const keys = bothArrays
    ? Array.from({ length: Math.max((from as unknown[]).length, (to as unknown[]).length) }, (_, i) => String(i))
    : [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const out: PropertyChange[] = [];
  for (const k of keys) {
    const p = path ? `${path}.${k}` : k;
    const inA = bothArrays ? Number(k) < (from as unknown[]).length : Object.hasOwn(a, k);
    const inB = bothArrays ? Number(k) < (to as unknown[]).length : Object.hasOwn(b, k);
    if (!inA) out.push({ path: p, change: 'added', to: b[k] });
    else if (!inB) out.push({ path: p, change: 'removed', from: a[k] });
    else out.push(...diffProperties(a[k], b[k], p));
  }
  return out;
}
