import { call, type Caller } from '../../brokers/actions.ts';
import type { Logger } from '../../brokers/logger.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';
import { TwinApprovalActions, type ApprovalNode } from '../../contracts/actions/twin-approvals.actions.ts';
import { DesignLoopSpecSchema, numberAt, withPath } from '../../contracts/design-loops.ts';
import type { ToolResult } from '../../contracts/tool-result.ts';

/** Seconds an iteration's tool call may take (a solve of a fine mesh), as the runs actor allows a phase's call. */
const ITERATION_SECONDS = 600;

/** What an approval of a spec loop says about the step it started (the decision's outcome). */
export function nextStep(loop: ApprovalNode): Record<string, unknown> {
  const spec = DesignLoopSpecSchema.safeParse(loop.properties);
  const index = Number(loop.properties.next_index ?? 0);
  return {
    design_loop_id: loop.id,
    approved_iteration:
      typeof loop.properties.winning_iteration === 'string' ? loop.properties.winning_iteration : null,
    next_iteration:
      loop.properties.status === 'iterating' && spec.success
        ? { index, value: spec.data.candidates[index], tool: spec.data.tool, status: 'running' }
        : null,
    loop_status: loop.properties.status ?? null,
  };
}

/**
 * Runs the next iteration of a loop a person just approved (status `iterating`): the loop's tool through the registry
 * as the internal service caller, with the loop's parameter set to the next candidate, scored by the number at the
 * loop's metric; the twin records the iteration and the new winner, and the loop waits for the next approval. A tool
 * failure is an iteration without a score (its error kept), never a made-up number. Not awaited by the decision.
 */
export async function runLoopIteration(via: Caller, loop: ApprovalNode, log: Logger): Promise<void> {
  const spec = DesignLoopSpecSchema.safeParse(loop.properties);
  if (!spec.success || loop.properties.status !== 'iterating') return;
  const index = Number(loop.properties.next_index ?? 0);
  const value = spec.data.candidates[index];
  const r: ToolResult = await call(
    via,
    ToolsActions.call,
    {
      name: spec.data.tool,
      arguments: withPath(spec.data.arguments, spec.data.parameter, value),
      timeout_seconds: ITERATION_SECONDS,
      call_id: `design_loop:${loop.id}:${index}`,
      caller: {
        kind: 'service',
        transport: 'internal',
        client: 'design-loop',
        ...(loop.project_id ? { project_id: loop.project_id } : {}),
      },
    },
    { timeout: ITERATION_SECONDS * 1000 + 10_000 },
  ).catch((err: unknown): ToolResult => ({
    status: 'error',
    tool_id: spec.data.tool,
    error: { type: 'TOOL_UNAVAILABLE', message: (err as Error).message, details: {} },
    duration_ms: 0,
  }));
  const score = r.status === 'success' ? numberAt(r.data, spec.data.metric) : null;
  const error =
    r.status === 'error'
      ? `${r.error.type}: ${r.error.message}`
      : score === null
        ? `the result has no number at ${spec.data.metric}`
        : null;
  const done = await call(via, TwinApprovalActions.loopIterated, {
    loop_id: loop.id,
    index,
    value,
    score,
    error,
    result: r.status === 'success' ? r.data : {},
    output_files: r.status === 'success' ? r.output_files : [],
    author: 'design-loop',
  });
  log.info(
    { design_loop: loop.id, index, value, score, error, winner: done.properties.winning_iteration },
    'design loop iteration recorded',
  );
}
