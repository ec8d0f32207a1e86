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

/** A loop `iterating` longer than this had its runner stopped (a node stopped mid-iteration): it is run again. */
export const STALE_ITERATION_MS = (ITERATION_SECONDS + 60) * 1000;

/**
 * The approvals actor's loop runner: starts an approved loop's iteration (once per loop in this process) and, on the
 * deliverer's tick, runs again the iterations of loops left `iterating` longer than an iteration may take (their
 * runner stopped with its node). A second runner of the same iteration records nothing (the twin takes one record per
 * index), so a resume never records an iteration twice.
 */
export function createLoopRunner(log: Logger, now: () => Date) {
  const running = new Set<string>();
  const start = (via: Caller, loop: ApprovalNode): void => {
    if (loop.properties.status !== 'iterating' || running.has(loop.id)) return;
    running.add(loop.id);
    runLoopIteration(via, loop, log)
      .catch((err: unknown) =>
        log.error({ design_loop: loop.id, err: (err as Error).message }, 'design loop iteration not recorded'),
      )
      .finally(() => running.delete(loop.id));
  };
  return {
    start,
    async resumeStale(via: Caller): Promise<number> {
      // No twin on the bus now: nothing to resume until it is back (the next look).
      const listed = await call(via, TwinApprovalActions.nodes, { kinds: ['design_loop'], status: 'decided' }).catch(
        () => undefined,
      );
      const nodes = listed?.nodes ?? [];
      const stale = nodes.filter(
        (n) => n.properties.status === 'iterating' && now().getTime() - Date.parse(n.updated_at) > STALE_ITERATION_MS,
      );
      for (const n of stale) {
        log.warn({ design_loop: n.id, since: n.updated_at }, 'design loop left iterating: running its iteration again');
        start(via, n);
      }
      return stale.length;
    },
  };
}
export type LoopRunner = ReturnType<typeof createLoopRunner>;
