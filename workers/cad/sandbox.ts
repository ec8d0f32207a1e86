import vm from 'node:vm';
import * as replicad from 'replicad';
import type { AnyShape } from 'replicad';
import { defect } from './check.ts';
import { KernelError } from './errors.ts';
import { requestRetire, snapshotShared } from './integrity.ts';
import { kernelErrorText } from './kernel.ts';
import { propertiesOf } from './measure.ts';

/** SPEC Limits: an `execute_code` result is capped at 20000 serialized characters. */
export const RESULT_CAP = 20_000;
const LOG_CAP = 200;

let hardened = false;

/**
 * Closes the classic ways out of a vm context in this (kernel worker) realm: every host function a script can reach
 * (replicad's API, errors the kernel throws) leads through `.constructor` to this realm's Function, AsyncFunction and
 * generator constructors, which would compile code with `process` in scope; they are replaced by a function that
 * throws. `Error.prepareStackTrace` is pinned so a script cannot collect host call sites. The context itself is
 * created with code generation from strings and wasm disabled, no `require`, no `process`, no dynamic import.
 */
export function hardenRealm(): void {
  if (hardened) return;
  hardened = true;
  const blocked = function blockedConstructor(): never {
    throw new EvalError('code generation is not available to CAD scripts');
  };
  const ctors = [
    Function,
    (async () => undefined).constructor,
    function* g() {}.constructor,
    async function* ag() {}.constructor,
  ];
  for (const C of ctors)
    Object.defineProperty(C.prototype, 'constructor', { value: blocked, writable: false, configurable: false });
  Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
}

/** Is this a replicad shape (a document object the caller can get back as obj_id or a file)? */
export function isShape(v: unknown): v is AnyShape {
  return v instanceof replicad.Shape;
}

/** A value as plain JSON data: shapes become their measured properties, functions are dropped, cycles are cut. */
export function toPlain(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value ?? null, (_k, v: unknown) => {
    if (isShape(v)) return { type: 'shape', ...propertiesOf(v) };
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'function' || typeof v === 'symbol') return undefined;
    if (v && typeof v === 'object') {
      if (seen.has(v)) return '[Circular]';
      seen.add(v);
    }
    return v;
  });
  return text === undefined ? null : JSON.parse(text);
}

/** Caps plain data at RESULT_CAP serialized characters: a longer result comes back as its JSON text, cut. */
export function capResult(plain: unknown): { result: unknown; result_truncated: boolean; result_chars: number } {
  const text = JSON.stringify(plain);
  if (text.length <= RESULT_CAP) return { result: plain, result_truncated: false, result_chars: text.length };
  return { result: text.slice(0, RESULT_CAP), result_truncated: true, result_chars: text.length };
}

/** A solid a script returns must pass the same checks as any feature: never an invalid solid back to the caller. */
export function checkedResult(value: unknown): void {
  if (!isShape(value) || !replicad.isShape3D(value)) return;
  const bad = defect(value);
  if (bad) throw new KernelError(`the script's result is not a usable solid: ${bad}`, { reason: bad });
}

/** What a script run produced: its `result` (or completion value), captured console output, elapsed time. */
export interface ScriptOutcome {
  value: unknown;
  logs: string[];
  duration_ms: number;
}

/**
 * Runs a JavaScript script against the kernel API in a fresh vm context. The script sees replicad's functions as
 * globals, `params` (a copy of the caller's data), `console.log`, and `extra` globals (session helpers); its result
 * is the variable `result` when it defines one, else its completion value. `timeoutMs` bounds synchronous CPU time
 * (the adapter deadline kills the thread for anything else). Kernel exceptions become KernelErrors.
 */
export async function runScript(
  code: string,
  opts: { timeoutMs: number; params?: unknown; extra?: Record<string, unknown> },
): Promise<ScriptOutcome> {
  hardenRealm();
  const started = performance.now();
  const logs: string[] = [];
  const log = (...args: unknown[]) => {
    if (logs.length < LOG_CAP)
      logs.push(
        args
          .map((a) => (typeof a === 'string' ? a : JSON.stringify(toPlain(a))))
          .join(' ')
          .slice(0, 2000),
      );
  };
  const globals: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(replicad))
    if (k !== 'setOC' && k !== 'getOC' && k !== 'setManifold' && k !== 'getManifold') globals[k] = v;
  Object.assign(globals, {
    console: { log, info: log, warn: log, error: log },
    measure: (s: AnyShape) => propertiesOf(s),
    ...opts.extra,
  });
  const context = vm.createContext(globals, { name: 'cad-script', codeGeneration: { strings: false, wasm: false } });
  const shared = snapshotShared();
  vm.runInContext(`globalThis.params = JSON.parse(${JSON.stringify(JSON.stringify(opts.params ?? {}))});`, context);
  let value: unknown;
  try {
    const completion = new vm.Script(code, { filename: 'script.js' }).runInContext(context, {
      timeout: opts.timeoutMs,
      breakOnSigint: false,
    });
    const named = vm.runInContext('typeof result === "undefined" ? undefined : result', context);
    value = named !== undefined ? named : completion;
    if (value && typeof (value as PromiseLike<unknown>).then === 'function')
      value = await (value as PromiseLike<unknown>);
  } catch (err) {
    await settle();
    throw tampered(shared.changed()) ?? scriptError(err);
  }
  await settle();
  const bad = tampered(shared.changed());
  if (bad) throw bad;
  return { value, logs, duration_ms: performance.now() - started };
}

/** Lets every promise job the script queued run (microtasks drain before the next macrotask) before the check. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A script that changed the thread's shared objects: the thread is retired and the call refused. */
function tampered(names: string[]): KernelError | undefined {
  if (!names.length) return undefined;
  requestRetire();
  return new KernelError(
    `the script changed shared objects of the kernel (${names.slice(0, 5).join(', ')}); the call is refused and its kernel thread replaced`,
    { changed: names.slice(0, 20) },
  );
}

/** A script failure as a tool error: the vm's timeout, a syntax error, or the script's own exception text. */
function scriptError(err: unknown): KernelError {
  const e = err as { code?: string; name?: string; message?: string; stack?: string };
  if (e?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
    return new KernelError(`the script exceeded its CPU time limit (${e.message})`, { reason: 'timeout' }, 'timeout');
  const text =
    e && typeof e === 'object' && 'message' in e ? `${e.name ?? 'Error'}: ${e.message}` : kernelErrorText(err);
  const where = typeof e?.stack === 'string' ? /script\.js:(\d+)(?::(\d+))?/.exec(e.stack) : null;
  return new KernelError(`the script failed${where ? ` at line ${where[1]}` : ''}: ${text}`, {
    error: text,
    ...(where ? { line: Number(where[1]) } : {}),
  });
}
