import type { Context } from 'moleculer';
import { adapterActions, type AnnouncedTool } from '../../contracts/actions/adapters.actions.ts';
import type { ToolCallParams } from '../../contracts/actions/tools.actions.ts';
import { toolFailed, type ToolResult } from '../../contracts/tool-result.ts';
import { call } from '../../brokers/actions.ts';

/** Grace past the tool's own deadline before the bus call itself gives up (the adapter answers TOOL_TIMEOUT first). */
const BUS_GRACE_MS = 5000;

/** Moleculer errors that mean the adapter's node went away mid-call (a crash), not a tool refusal. */
const NODE_LOST = new Set(['REQUEST_REJECTED', 'SERVICE_NOT_AVAILABLE', 'SERVICE_NOT_FOUND', 'INVALID_ENDPOINT']);

/**
 * Sends one validated call to its adapter and passes its ToolResult through as it is. When the adapter gives no answer,
 * the failure is a ToolResult too: a crash of the adapter's node is TOOL_EXECUTION_ERROR (retried once on another node
 * only for idempotent tools), a node gone before the call started is TOOL_UNAVAILABLE, a deadline is TOOL_TIMEOUT.
 */
export async function dispatch(
  ctx: Context,
  tool: AnnouncedTool,
  p: ToolCallParams,
  attempts = tool.idempotent ? 2 : 1,
): Promise<ToolResult> {
  const started = performance.now();
  const timeoutMs = p.timeout_seconds * 1000;
  const acts = adapterActions(tool.adapter_id);
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(
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
      const failed = (error: Parameters<typeof toolFailed>[1]) =>
        toolFailed(tool.tool_id, error, performance.now() - started);
      if (type === 'REQUEST_TIMEOUT') {
        return failed({
          type: 'TOOL_TIMEOUT',
          message: `tool ${tool.tool_id} exceeded its timeout of ${p.timeout_seconds} seconds`,
          details: { timeout_seconds: p.timeout_seconds },
        });
      }
      if (NODE_LOST.has(type) && attempt < attempts) continue;
      if (NODE_LOST.has(type) && attempt === 1 && type !== 'REQUEST_REJECTED') {
        const message = `adapter ${tool.adapter_id} is unavailable: ${(err as Error).message}`;
        return failed({ type: 'TOOL_UNAVAILABLE', message, details: message });
      }
      return failed({
        type: 'TOOL_EXECUTION_ERROR',
        message: `adapter ${tool.adapter_id} failed while running ${tool.tool_id}`,
        details: (err as Error).message,
      });
    }
  }
}
