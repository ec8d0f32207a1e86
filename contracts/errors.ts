import { z } from 'zod';

/**
 * JSON-RPC code table (SPEC "Errors / JSON-RPC codes"). One shared table for both tool-protocol dialects.
 */
export const JsonRpcCodes = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  TOOL_EXECUTION_ERROR: -32001,
  RESOURCE_NOT_FOUND: -32002,
  TOOL_UNAVAILABLE: -32003,
  RESOURCE_READ_ERROR: -32005,
  TOOL_TIMEOUT: -32006,
  AUTH_DENIED: -32007,
} as const;
export type JsonRpcCodeName = keyof typeof JsonRpcCodes;
export const JsonRpcCodeNameSchema = z.enum(Object.keys(JsonRpcCodes) as [JsonRpcCodeName, ...JsonRpcCodeName[]]);

/**
 * The closed catalogue of wire error codes (STYLE R7). Each code has exactly one HTTP status and one JSON-RPC code.
 * A test fails when a code is thrown that is not listed here, or listed here and never used.
 */
export const ErrorCatalogue = {
  INVALID_JSON: { http: 400, rpc: JsonRpcCodes.PARSE_ERROR, retryable: false, doc: 'request body is not valid JSON' },
  BAD_REQUEST: { http: 400, rpc: JsonRpcCodes.INVALID_REQUEST, retryable: false, doc: 'malformed request' },
  AUTH_REQUIRED: { http: 401, rpc: JsonRpcCodes.AUTH_DENIED, retryable: false, doc: 'missing or wrong credential' },
  FORBIDDEN: { http: 403, rpc: JsonRpcCodes.AUTH_DENIED, retryable: false, doc: 'the caller may not do this' },
  FORBIDDEN_HOST: { http: 403, rpc: JsonRpcCodes.INVALID_REQUEST, retryable: false, doc: 'foreign Host or Origin' },
  NOT_FOUND: { http: 404, rpc: JsonRpcCodes.RESOURCE_NOT_FOUND, retryable: false, doc: 'unknown route or id' },
  REQUEST_TIMEOUT: {
    http: 408,
    rpc: JsonRpcCodes.INVALID_REQUEST,
    retryable: true,
    doc: 'the client did not send its request in time',
  },
  CONFLICT: {
    http: 409,
    rpc: JsonRpcCodes.INVALID_REQUEST,
    retryable: false,
    doc: 'not possible in the current state',
  },
  STALE_REVISION: {
    http: 409,
    rpc: JsonRpcCodes.INVALID_PARAMS,
    retryable: false,
    doc: 'KEY@n names a revision that is no longer the head',
  },
  PATCH_CONFLICT: {
    http: 409,
    rpc: JsonRpcCodes.INVALID_REQUEST,
    retryable: false,
    doc: 'drafts were based on revisions that changed; nothing committed',
  },
  PAYLOAD_TOO_LARGE: { http: 413, rpc: JsonRpcCodes.INVALID_REQUEST, retryable: false, doc: 'body over the limit' },
  UNSUPPORTED_MEDIA_TYPE: {
    http: 415,
    rpc: JsonRpcCodes.INVALID_REQUEST,
    retryable: false,
    doc: 'content type not accepted',
  },
  VALIDATION_FAILED: {
    http: 422,
    rpc: JsonRpcCodes.INVALID_PARAMS,
    retryable: false,
    doc: 'a field is missing or of the wrong type',
  },
  HEADERS_TOO_LARGE: {
    http: 431,
    rpc: JsonRpcCodes.INVALID_REQUEST,
    retryable: false,
    doc: 'request headers over the limit',
  },
  INTERNAL: { http: 500, rpc: JsonRpcCodes.INTERNAL_ERROR, retryable: false, doc: 'unexpected failure' },
  SERVICE_UNAVAILABLE: {
    http: 503,
    rpc: JsonRpcCodes.TOOL_UNAVAILABLE,
    retryable: true,
    doc: 'the actor serving this is not reachable',
  },
  TIMEOUT: { http: 504, rpc: JsonRpcCodes.TOOL_TIMEOUT, retryable: true, doc: 'the actor did not answer in time' },
} as const satisfies Record<string, { http: number; rpc: number; retryable: boolean; doc: string }>;

export type ErrorCode = keyof typeof ErrorCatalogue;
export const ErrorCodeSchema = z.enum(Object.keys(ErrorCatalogue) as [ErrorCode, ...ErrorCode[]]);

/**
 * The one JSON error body of every gateway route outside the approvals API (the spec leaves it open; this is the choice).
 * `details` carries field-level validation issues or the ids involved.
 */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** A validation issue as reported in `details.issues`: a dotted path and what is wrong with it. */
export const ValidationIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** Plain, serialisable form of an actor error: what crosses the bus and is rebuilt on receipt. */
export const ActorErrorShapeSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type ActorErrorShape = z.infer<typeof ActorErrorShapeSchema>;

/** Turns zod issues into the `details.issues` list, naming each field by its dotted path. */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}
