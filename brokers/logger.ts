import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/**
 * The process's root pino logger. Logs go to stderr when stdout carries a protocol (stdio transport), else stdout.
 * Object first, always: `log.info({ runId }, 'gate armed')` (notes/runtime.md: message-first drops the object).
 */
export function createRootLogger(opts: {
  level: LevelWithSilent;
  toStderr?: boolean;
  base?: Record<string, unknown>;
}): Logger {
  return pino(
    { level: opts.level, base: opts.base ?? { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ fd: opts.toStderr ? 2 : 1, sync: false }),
  );
}

/** Moleculer logger options that route every service's logs through children of `root`. */
export function moleculerLoggerOptions(root: Logger, level: LevelWithSilent) {
  return {
    type: 'Pino',
    options: {
      level,
      createLogger: (lvl: LevelWithSilent, bindings: Record<string, unknown>) =>
        root.child({ node: bindings.nodeID, svc: bindings.svc, mod: bindings.mod }, { level: lvl }),
    },
  };
}
