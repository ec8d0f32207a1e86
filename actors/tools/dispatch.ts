import type { Context } from 'moleculer';
import { adapterActions, type AnnouncedTool, type InvokeResult } from '../../contracts/actions/adapters.actions.ts';
import type { ToolCallOutcome, ToolCallParams } from '../../contracts/actions/tools.actions.ts';
import { call } from '../../brokers/actions.ts';

/** Grace past the tool's own deadline before the bus call itself gives up (the adapter answers TOOL_TIMEOUT first). */
const BUS_GRACE_MS = 5000;

/** Moleculer errors that mean the adapter's node went away mid-call (a crash), not a tool refusal. */
const NODE_LOST = new Set(['REQUEST_REJECTED', 'SERVICE_NOT_AVAILABLE', 'SERVICE_NOT_FOUND', 'INVALID_ENDPOINT']);

/**
 * Sends one validated call to its adapter and maps the answer to an outcome. A crash of the adapter's node is
 * TOOL_EXECUTION_ERROR, retried once on another node only for idempotent tools; a deadline is TOOL_TIMEOUT.
 */
export async function dispatch(
  ctx: Context,
  tool: AnnouncedTool,
  p: ToolCallParams,
  attempts = tool.idempotent ? 2 : 1,
): Promise<ToolCallOutcome> {
  const started = performance.now();
  const timeoutMs = p.timeout_seconds * 1000;
  const acts = adapterActions(tool.adapter_id);
  for (let attempt = 1; ; attempt++) {
    let result: InvokeResult;
    try {
      result = await call(
        ctx,
        acts.invoke,
        {
          tool_id: tool.tool_id,
          arguments: p.arguments,
          call_id: p.call_id,
          timeout_ms: timeoutMs,
          caller: p.caller,
          progress_node: p.progress_node,
        },
        { timeout: timeoutMs + BUS_GRACE_MS, retries: 0 },
      );
    } catch (err) {
      const type = (err as { type?: string }).type ?? '';
      const duration_ms = performance.now() - started;
      if (type === 'REQUEST_TIMEOUT') {
        return {
          kind: 'tool_error',
          tool_id: tool.tool_id,
          duration_ms,
          error: {
            type: 'TOOL_TIMEOUT',
            message: `tool ${tool.tool_id} exceeded its timeout of ${p.timeout_seconds} seconds`,
            details: { timeout_seconds: p.timeout_seconds },
          },
        };
      }
      if (NODE_LOST.has(type) && attempt < attempts) continue;
      if (NODE_LOST.has(type) && attempt === 1 && type !== 'REQUEST_REJECTED') {
        return {
          kind: 'unavailable',
          tool_id: tool.tool_id,
          message: `adapter ${tool.adapter_id} is unavailable: ${(err as Error).message}`,
          duration_ms,
        };
      }
      return {
        kind: 'tool_error',
        tool_id: tool.tool_id,
        duration_ms,
        error: {
          type: 'TOOL_EXECUTION_ERROR',
          message: `adapter ${tool.adapter_id} failed while running ${tool.tool_id}`,
          details: (err as Error).message,
        },
      };
    }
    return toOutcome(tool, result);
  }
}

function toOutcome(tool: AnnouncedTool, r: InvokeResult): ToolCallOutcome {
  if (r.status === 'success')
    return {
      kind: 'ok',
      tool_id: tool.tool_id,
      data: r.data,
      output_files: r.output_files,
      duration_ms: r.duration_ms,
    };
  if (r.error.type === 'TOOL_UNAVAILABLE')
    return { kind: 'unavailable', tool_id: tool.tool_id, message: r.error.message, duration_ms: r.duration_ms };
  if (r.error.type === 'INVALID_ARGUMENTS') {
    const details = r.error.details;
    const issues =
      typeof details === 'object' && Array.isArray(details.validation_errors)
        ? details.validation_errors
        : [{ path: '(arguments)', message: r.error.message }];
    return {
      kind: 'invalid_params',
      tool_id: tool.tool_id,
      validation_errors: issues as { path: string; message: string }[],
    };
  }
  return { kind: 'tool_error', tool_id: tool.tool_id, error: r.error, duration_ms: r.duration_ms };
}
