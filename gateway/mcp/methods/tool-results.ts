import { TOOL_CONTENT_KEY, type AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import type { ToolCallOutcome } from '../../../contracts/actions/tools.actions.ts';
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
 * -32003, unapproved held call -32001 with `approval_required` data. Returns undefined for outcomes a dialect maps itself.
 */
export function sharedError(o: ToolCallOutcome) {
  switch (o.kind) {
    case 'not_found': {
      const suffix = o.ambiguous
        ? `; the alias matches several tools: ${o.ambiguous.join(', ')}`
        : o.did_you_mean.length
          ? `; did you mean ${o.did_you_mean.join(', ')}?`
          : '';
      return rpcError('METHOD_NOT_FOUND', `Tool not found: ${o.tool_id}${suffix}`, {
        tool_id: o.tool_id,
        did_you_mean: o.did_you_mean,
        tool_count: o.tool_count,
      });
    }
    case 'invalid_params':
      return rpcError(
        'INVALID_PARAMS',
        `Invalid arguments for ${o.tool_id}: ${o.validation_errors.map((v) => `${v.path} ${v.message}`).join('; ')}`,
        {
          tool_id: o.tool_id,
          validation_errors: o.validation_errors,
        },
      );
    case 'unavailable':
      return rpcError('TOOL_UNAVAILABLE', `Tool adapter is unavailable: ${o.message}`, {
        error_type: 'TOOL_UNAVAILABLE',
        tool_id: o.tool_id,
        details: o.message,
        duration_ms: o.duration_ms,
      });
    case 'held': {
      const { kind: _k, message, ...rest } = o;
      return rpcError('TOOL_EXECUTION_ERROR', message, { ...rest, code: 'approval_required', retryable: false });
    }
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

/** MCP dialect (`tools/call`): success and tool failures are results; the rest are JSON-RPC errors. */
export function toMcpResult(o: ToolCallOutcome, callId: string) {
  const err = sharedError(o);
  if (err) throw err;
  if (o.kind === 'ok') return okResult(o.data, callId);
  if (o.kind === 'refused') {
    return {
      content: [{ type: 'text', text: o.message }],
      isError: true,
      _meta: { callId, error: { toolId: o.tool_id, details: o.message, durationMs: 0 } },
    };
  }
  if (o.kind === 'tool_error') {
    return {
      content: [{ type: 'text', text: o.error.message }],
      isError: true,
      _meta: {
        callId,
        error: { toolId: o.tool_id, type: o.error.type, details: o.error.details, durationMs: o.duration_ms },
      },
    };
  }
  throw new Error(`unmapped outcome ${o.kind}`);
}

/** The constant legacy message of an execution failure; the reason is in data.details (SPEC "Errors"). */
export const LEGACY_EXECUTION_MESSAGE = 'Tool execution failed';

/** Legacy dialect (`tool/call`): success is `{tool_id, status, data, duration_ms, output_files}`, failures are errors. */
export function toLegacyResult(o: ToolCallOutcome) {
  const err = sharedError(o);
  if (err) throw err;
  if (o.kind === 'ok')
    return {
      tool_id: o.tool_id,
      status: 'success',
      data: o.data,
      duration_ms: o.duration_ms,
      output_files: o.output_files,
    };
  if (o.kind === 'refused') {
    throw rpcError('TOOL_EXECUTION_ERROR', LEGACY_EXECUTION_MESSAGE, {
      error_type: 'TOOL_EXECUTION_ERROR',
      tool_id: o.tool_id,
      details: o.message,
      duration_ms: 0,
    });
  }
  if (o.kind === 'tool_error') {
    if (o.error.type === 'TOOL_TIMEOUT') {
      throw rpcError('TOOL_TIMEOUT', o.error.message, {
        error_type: 'TOOL_TIMEOUT',
        tool_id: o.tool_id,
        details: o.error.details,
        duration_ms: o.duration_ms,
      });
    }
    throw rpcError('TOOL_EXECUTION_ERROR', LEGACY_EXECUTION_MESSAGE, {
      error_type: 'TOOL_EXECUTION_ERROR',
      tool_id: o.tool_id,
      details:
        typeof o.error.details === 'string'
          ? `${o.error.message}: ${o.error.details}`.replace(/^(.*): \1$/, '$1')
          : { message: o.error.message, ...o.error.details },
      duration_ms: o.duration_ms,
    });
  }
  throw new Error(`unmapped outcome ${o.kind}`);
}
