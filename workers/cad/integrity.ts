import * as replicad from 'replicad';

/**
 * Tamper check of a kernel thread's shared objects around a script. A script only sees replicad's API and values
 * those functions return, but through them it can reach this realm's built-in prototypes and replicad's classes,
 * and a change there would outlive the call and leak into other sessions pinned to the thread. So the own properties
 * of those objects are fingerprinted before a script and compared after it; a changed thread is retired (replaced
 * once the call returns) and the call is refused. Honest scripts never trip it, so sessions do not replay needlessly.
 */
let retire = false;

/** True once a script changed shared objects; the thread is replaced after its current task. */
export function retireRequested(): boolean {
  return retire;
}

/** Marks the thread for replacement after the current task. */
export function requestRetire(): void {
  retire = true;
}

const BUILTINS: object[] = [
  Object,
  Object.prototype,
  Function.prototype,
  Array,
  Array.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Symbol.prototype,
  BigInt.prototype,
  Promise,
  Promise.prototype,
  Error,
  Error.prototype,
  TypeError.prototype,
  RangeError.prototype,
  Map.prototype,
  Set.prototype,
  WeakMap.prototype,
  WeakSet.prototype,
  RegExp.prototype,
  Date.prototype,
  JSON,
  Math,
  Reflect,
  ArrayBuffer.prototype,
  Uint8Array.prototype,
  Float64Array.prototype,
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  Object.getPrototypeOf([][Symbol.iterator]()) as object,
  WebAssembly,
];

/** Every object whose own properties are watched: the built-ins above, replicad's exports and their class chains. */
function watched(): object[] {
  const out = new Set<object>(BUILTINS);
  for (const v of Object.values(replicad)) {
    if (typeof v !== 'function' && (typeof v !== 'object' || v === null)) continue;
    out.add(v);
    for (let p = (v as { prototype?: object }).prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p))
      out.add(p);
  }
  return [...out];
}

/** An object's own properties with the identity of their values, getters and setters, and their flags. */
function fingerprint(o: object): unknown[] {
  const out: unknown[] = [Object.getPrototypeOf(o), Object.isExtensible(o)];
  for (const key of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, key)!;
    out.push(key, d.value, d.get, d.set, d.writable, d.enumerable, d.configurable);
  }
  return out;
}

/** Snapshot of the watched objects; `changed()` names those that differ now. */
export function snapshotShared(): { changed(): string[] } {
  const targets = watched();
  const before = targets.map(fingerprint);
  return {
    changed() {
      const names: string[] = [];
      targets.forEach((t, i) => {
        const now = fingerprint(t);
        if (now.length !== before[i].length || now.some((v, k) => !Object.is(v, before[i][k]))) {
          names.push(
            (t as { name?: string }).name ||
              (t as { constructor?: { name?: string } }).constructor?.name ||
              'an object',
          );
        }
      });
      return names;
    },
  };
}
