import type { Logger } from '../../brokers/logger.ts';

/**
 * The harness's one redactor (issue 27, finding 8): every provider error text and every log line of the harness
 * passes through it before it leaves the actor (the chat stream's notify_error, the call results, the fallback
 * events, the logs). It removes every key the harness holds (the stored credentials, the env-referenced keys of
 * explicit calls) wherever it appears, and anything shaped like a secret: a bearer or basic token, an `x-api-key`
 * value, an `sk-...` key. A key shorter than MIN_KEY characters is left to the shapes (it would blank ordinary words).
 */

export const REDACTED = '[redacted]';
const MIN_KEY = 6;
/** How deep a log object is walked (pino's own objects are shallow; deeper parts are dropped, not leaked). */
const MAX_DEPTH = 8;

const SHAPES: [RegExp, string][] = [
  [/\b(Bearer|Basic|Token)\s+[^\s"'`,;)}\]]+/gi, `$1 ${REDACTED}`],
  [/\b((?:x-)?api[-_]?key["']?\s*[:=]\s*["']?)[^\s"'`,;&)}\]]+/gi, `$1${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, REDACTED],
];

export interface Redactor {
  /** Remembers a key to remove from now on (a credential added or loaded, a key an explicit call resolved). */
  add(key: string): void;
  /** The text with every known key and every secret shape replaced by [redacted]. */
  text(s: string): string;
  /** A copy of a log object or value with every string redacted (errors become {type, message, stack}). */
  value(v: unknown): unknown;
}

export function createRedactor(): Redactor {
  const keys = new Set<string>();
  let ordered: string[] = [];

  function text(s: string): string {
    let out = s;
    for (const k of ordered) if (out.includes(k)) out = out.split(k).join(REDACTED);
    for (const [re, by] of SHAPES) out = out.replace(re, by);
    return out;
  }

  function value(v: unknown, depth = 0): unknown {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_DEPTH) return '[deep]';
    if (v instanceof Error) {
      const cause = (v as { cause?: unknown }).cause;
      return {
        type: v.name,
        message: text(v.message),
        ...(v.stack ? { stack: text(v.stack) } : {}),
        ...(cause === undefined ? {} : { cause: value(cause, depth + 1) }),
      };
    }
    if (v instanceof Date) return v;
    if (Array.isArray(v)) return v.map((x) => value(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x, depth + 1)]));
  }

  return {
    add(key) {
      if (key.length < MIN_KEY || keys.has(key)) return;
      keys.add(key);
      ordered = [...keys].sort((a, b) => b.length - a.length); // a key inside a longer one goes after it
    },
    text,
    value: (v) => value(v),
  };
}

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/**
 * The harness's logger: every line's object and message through the redactor first; children stay redacting. The
 * rest of pino (level, bindings, isLevelEnabled...) is the wrapped logger's own.
 */
export function redactingLogger(log: Logger, r: Redactor): Logger {
  return new Proxy(log, {
    get(target, prop, receiver) {
      const real = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || typeof real !== 'function') return real;
      if (prop === 'child')
        return (...args: unknown[]) =>
          redactingLogger(
            (real as (...a: unknown[]) => Logger).apply(
              target,
              args.map((a) => r.value(a)),
            ),
            r,
          );
      if (!LEVELS.has(prop)) return real;
      return (...args: unknown[]) =>
        (real as (...a: unknown[]) => void).apply(
          target,
          args.map((a) => r.value(a)),
        );
    },
  });
}

type Handler = (ctx: unknown) => unknown;

/**
 * The harness's actions with every thrown error redacted (its message and data) before it crosses the bus: the same
 * error object, so its class, code and status are kept. Results are the parts' own (their failures already redacted).
 */
export function redactingActions<T extends Record<string, unknown>>(actions: T, r: Redactor): T {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(actions)) {
    const schema = def as { handler?: Handler };
    if (!schema || typeof schema.handler !== 'function') {
      out[name] = def;
      continue;
    }
    const handler = schema.handler;
    out[name] = {
      ...schema,
      async handler(this: unknown, ctx: unknown) {
        try {
          return await handler.call(this, ctx);
        } catch (err) {
          if (err instanceof Error) {
            err.message = r.text(err.message);
            if (err.stack) err.stack = r.text(err.stack);
            const e = err as { data?: unknown };
            if (e.data !== undefined) e.data = r.value(e.data);
          }
          throw err;
        }
      },
    };
  }
  return out as T;
}
