import moleculer from 'moleculer';
import { ErrorCatalogue, type ActorErrorShape, type ErrorCode, type ValidationIssue } from '../contracts/index.ts';

const { MoleculerError } = moleculer.Errors;

/**
 * A wire error (STYLE R7): its `type` is a catalogue code, `code` the HTTP status from the catalogue.
 * Crosses the bus as a plain object and is rebuilt on receipt by `ActorErrorRegenerator`.
 */
export class ActorError extends MoleculerError {
  override name = 'ActorError';
  declare type: ErrorCode;

  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(message, ErrorCatalogue[code].http, code, data);
    this.retryable = ErrorCatalogue[code].retryable;
  }

  static notFound(what: string, id: string): ActorError {
    return new ActorError('NOT_FOUND', `${what} ${id} not found`, { [`${what}_id`]: id });
  }

  static validation(issues: ValidationIssue[], message?: string): ActorError {
    const text =
      message ?? `invalid ${issues.map((i) => i.path).join(', ')}: ${issues.map((i) => i.message).join('; ')}`;
    return new ActorError('VALIDATION_FAILED', text, { issues });
  }
}

/** Rebuilds `ActorError`s that crossed the bus so `instanceof` holds on the receiving node. */
export class ActorErrorRegenerator extends moleculer.Errors.Regenerator {
  override restoreCustomError(plain: { name?: string; type?: string; message: string; data?: unknown }): Error {
    if (plain.name === 'ActorError' && plain.type && plain.type in ErrorCatalogue) {
      return new ActorError(plain.type as ErrorCode, plain.message, plain.data as Record<string, unknown> | undefined);
    }
    // Moleculer's contract: undefined means "not a custom error, restore it the default way".
    return undefined as unknown as Error;
  }
}

/** Moleculer's own error types, mapped to catalogue codes. */
const MOLECULER_TYPES: Record<string, ErrorCode> = {
  SERVICE_NOT_FOUND: 'SERVICE_UNAVAILABLE',
  SERVICE_NOT_AVAILABLE: 'SERVICE_UNAVAILABLE',
  REQUEST_REJECTED: 'SERVICE_UNAVAILABLE',
  REQUEST_SKIPPED: 'TIMEOUT',
  REQUEST_TIMEOUT: 'TIMEOUT',
  QUEUE_FULL: 'SERVICE_UNAVAILABLE',
  BROKER_NOT_STARTED: 'SERVICE_UNAVAILABLE',
  INVALID_ENDPOINT: 'SERVICE_UNAVAILABLE',
  VALIDATION_ERROR: 'VALIDATION_FAILED',
};

/** Reduces any thrown value to the serialisable shape the gateway answers with. */
export function toActorErrorShape(err: unknown): ActorErrorShape {
  if (err instanceof ActorError) {
    return {
      code: err.type,
      message: err.message,
      retryable: err.retryable,
      data: err.data as Record<string, unknown>,
    };
  }
  const e = err as { type?: string; message?: string; data?: unknown; name?: string };
  const mapped = e?.type ? MOLECULER_TYPES[e.type] : undefined;
  if (mapped === 'VALIDATION_FAILED') {
    const issues = Array.isArray(e.data)
      ? (e.data as { field?: string; message?: string }[]).map((d) => ({
          path: d.field ?? '(root)',
          message: d.message ?? 'invalid',
        }))
      : [];
    return { code: mapped, message: e.message ?? 'invalid parameters', retryable: false, data: { issues } };
  }
  if (mapped === 'SERVICE_UNAVAILABLE') {
    const action = (e.data as { action?: string } | undefined)?.action;
    const actor = action ? action.split('.').slice(0, -1).join('.') : undefined;
    return {
      code: mapped,
      message: actor ? `the ${actor} actor is not reachable (${e.message})` : (e.message ?? 'service unavailable'),
      retryable: true,
      data: actor ? { actor } : undefined,
    };
  }
  if (mapped) return { code: mapped, message: e.message ?? mapped, retryable: true };
  if (e?.name === 'ActorError' && e.type && e.type in ErrorCatalogue) {
    return {
      code: e.type as ErrorCode,
      message: e.message ?? '',
      retryable: false,
      data: e.data as Record<string, unknown>,
    };
  }
  return { code: 'INTERNAL', message: 'internal error', retryable: false };
}
