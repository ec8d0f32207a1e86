import { TOOL_CONTENT_KEY, type AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import type { ToolFailed, ToolResult } from '../../../contracts/tool-result.ts';
import { ToolContentSchema } from '../../../contracts/tools.ts';
import { rpcError } from '../errors.ts';

/** MCP `tools/list` entry of an announced tool: named by its canonical id, or its bare name when the registry granted one. */
export function toMcpTool(t: AnnouncedTool) {
  const outputSchema =
    t.output_schema && (t.output_schema as { type?: string }).type === 'object' ? t.output_schema : undefined;
  return {
    name: t.bare_name ? t.name : t.tool_id,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.input_schema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: { ...(t.title ? { title: t.title } : {}), ...t.annotations },
  };
}

/** Legacy `tool/list` entry: the spec's manifest shape. */
export function toManifest(t: AnnouncedTool) {
  const { annotations: _a, idempotent: _i, title: _t, bare_name: _b, ...manifest } = t;
  return { ...manifest, annotations: t.annotations };
}

/**
 * Errors both dialects share: unknown tool -32601 with close matches, bad arguments -32602, adapter unavailable
 * -32003, unapproved held call -32001 with `approval_required` data. Returns undefined for the failures a dialect
 * renders itself (the tool ran and failed, timed out or was cancelled; the hold policy refused the call).
 */
function sharedError(r: ToolFailed) {
  const e = r.error;
  switch (e.type) {
    case 'TOOL_NOT_FOUND':
      return rpcError('METHOD_NOT_FOUND', e.message, {
        tool_id: r.tool_id,
        did_you_mean: e.details.did_you_mean,
        tool_count: e.details.tool_count,
      });
    case 'INVALID_ARGUMENTS':
      return rpcError('INVALID_PARAMS', e.message, {
        tool_id: r.tool_id,
        validation_errors: e.details.validation_errors,
      });
    case 'TOOL_UNAVAILABLE':
      return rpcError('TOOL_UNAVAILABLE', `Tool adapter is unavailable: ${e.message}`, {
        error_type: 'TOOL_UNAVAILABLE',
        tool_id: r.tool_id,
        details: e.message,
        duration_ms: r.duration_ms,
      });
    case 'APPROVAL_REQUIRED':
      return rpcError('TOOL_EXECUTION_ERROR', e.message, {
        tool_id: r.tool_id,
        ...e.details,
        code: 'approval_required',
        retryable: false,
      });
    default:
      return undefined;
  }
}

const OwnContent = ToolContentSchema.array().min(1);

/**
 * MCP result of a successful call: the data as JSON text plus `structuredContent`; or, when the data carries a valid
 * `_content` array (TOOL_CONTENT_KEY), that array as `content` and the rest, if any, as `structuredContent`.
 * An invalid `_content` is not trusted: the data is then returned whole, as JSON, like any other.
 */
function okResult(data: Record<string, unknown>, callId: string) {
  const own = TOOL_CONTENT_KEY in data ? OwnContent.safeParse(data[TOOL_CONTENT_KEY]) : undefined;
  if (!own?.success)
    return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data, _meta: { callId } };
  // The blocks go out as the tool wrote them (the schema would strip extra keys such as `annotations` from text blocks).
  const { [TOOL_CONTENT_KEY]: content, ...rest } = data;
  return {
    content: content as typeof own.data,
    ...(Object.keys(rest).length ? { structuredContent: rest } : {}),
    _meta: { callId },
  };
}

/**
 * MCP dialect (`tools/call`): success, and a tool that ran and failed or a call the policy refused, are results
 * (`isError: true` with `_meta.error`); the rest are JSON-RPC errors.
 */
export function toMcpResult(r: ToolResult, callId: string) {
  if (r.status === 'success') return okResult(r.data, callId);
  const err = sharedError(r);
  if (err) throw err;
  const e = r.error;
  // A refusal by the hold policy names no error type: the call never reached a tool.
  const error =
    e.type === 'REFUSED'
      ? { toolId: r.tool_id, details: e.details, durationMs: r.duration_ms }
      : { toolId: r.tool_id, type: e.type, details: e.details, durationMs: r.duration_ms };
  return { content: [{ type: 'text', text: e.message }], isError: true, _meta: { callId, error } };
}

/** The constant legacy message of an execution failure; the reason is in data.details (SPEC "Errors"). */
export const LEGACY_EXECUTION_MESSAGE = 'Tool execution failed';

/** Legacy dialect (`tool/call`): success is `{tool_id, status, data, duration_ms, output_files}`, failures are errors. */
export function toLegacyResult(r: ToolResult) {
  if (r.status === 'success')
    return {
      tool_id: r.tool_id,
      status: 'success',
      data: r.data,
      duration_ms: r.duration_ms,
      output_files: r.output_files,
    };
  const err = sharedError(r);
  if (err) throw err;
  const e = r.error;
  if (e.type === 'TOOL_TIMEOUT') {
    throw rpcError('TOOL_TIMEOUT', e.message, {
      error_type: 'TOOL_TIMEOUT',
      tool_id: r.tool_id,
      details: e.details,
      duration_ms: r.duration_ms,
    });
  }
  throw rpcError('TOOL_EXECUTION_ERROR', LEGACY_EXECUTION_MESSAGE, {
    error_type: 'TOOL_EXECUTION_ERROR',
    tool_id: r.tool_id,
    details:
      e.type === 'REFUSED'
        ? e.details
        : typeof e.details === 'string'
          ? `${e.message}: ${e.details}`.replace(/^(.*): \1$/, '$1')
          : { message: e.message, ...e.details },
    duration_ms: r.duration_ms,
  });
}
