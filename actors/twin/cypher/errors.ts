/** Where in the query text an error was found: 0-based offset, 1-based line and column. */
export interface CypherPosition {
  offset: number;
  line: number;
  column: number;
}

/** What went wrong, so the tool adapter can choose its wording and status (spec "Twin and CAD tool rules" 11). */
export type CypherErrorKind =
  'syntax' | 'unsupported' | 'read_only' | 'project_scope' | 'parameter' | 'semantic' | 'database';

/**
 * A local error of the Cypher engine (never crosses the bus as is; the twin adapter turns it into a tool error).
 * `position` is set when the error can be pinned to the query text; `hint` says how to fix the query.
 */
export class CypherError extends Error {
  override readonly name = 'CypherError';
  readonly kind: CypherErrorKind;
  readonly position?: CypherPosition;
  readonly hint?: string;

  constructor(
    kind: CypherErrorKind,
    message: string,
    opts: { position?: CypherPosition; hint?: string; cause?: unknown } = {},
  ) {
    super(opts.position ? `${message} (line ${opts.position.line}, column ${opts.position.column})` : message, {
      cause: opts.cause,
    });
    this.kind = kind;
    this.position = opts.position;
    this.hint = opts.hint;
  }
}

/** Line and column (both 1-based) of `offset` in `source`. */
export function positionOf(source: string, offset: number): CypherPosition {
  const at = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset: at, line, column: at - lineStart + 1 };
}

/** Builds a CypherError pinned to `offset` in `source`. */
export function errorAt(
  kind: CypherErrorKind,
  source: string,
  offset: number,
  message: string,
  hint?: string,
): CypherError {
  return new CypherError(kind, message, { position: positionOf(source, offset), hint });
}

/** The clause list quoted by every "not supported" error. */
export const SUPPORTED_CLAUSES = 'MATCH, OPTIONAL MATCH, WHERE, RETURN, ORDER BY, SKIP, LIMIT';

/** The refusal text for any write without the launcher flag (spec "Twin and CAD tool rules" 11). */
export const READ_ONLY_MESSAGE =
  'twin.query_cypher is read-only; the server was not started with --allow-twin-mutations';
