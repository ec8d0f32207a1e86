import type { Context } from 'moleculer';
import { adapterActions, type AnnouncedTool } from '../../contracts/actions/adapters.actions.ts';
import type { ToolCallParams } from '../../contracts/actions/tools.actions.ts';
import { toolFailed, type ToolResult } from '../../contracts/tool-result.ts';
import { call } from '../../brokers/actions.ts';
import { boardOf, LoadBoard } from '../../brokers/load-board.ts';
import '../../brokers/least-in-flight.strategy.ts';
import { ADAPTER_BUSY_TYPE, AdapterLoadSchema } from '../../contracts/actions/adapter-load.ts';
import { backoffOf, retryPolicyOf, type RetryPolicy } from '../../contracts/tool-catalogue.ts';

/** Grace past the tool's own deadline before the bus call itself gives up (the adapter answers TOOL_TIMEOUT first). */
const BUS_GRACE_MS = 5000;
/** A call waiting for a free slot looks again this often even with no news (an `adapters.load` hint may be lost). */
const WAIT_POLL_MS = 2000;

/** Moleculer errors that mean the adapter's node went away mid-call (a crash), not a tool refusal. */
const NODE_LOST = new Set(['REQUEST_REJECTED', 'SERVICE_NOT_AVAILABLE', 'SERVICE_NOT_FOUND', 'INVALID_ENDPOINT']);
/** Of those, the ones that mean a call sent to a chosen node was never sent (the node left before). */
const NOT_SENT = new Set(['SERVICE_NOT_AVAILABLE', 'SERVICE_NOT_FOUND']);

/** The board of a broker not built by createBroker: no published loads, so a waiting call looks again on its poll. */
const fallbackBoard = new LoadBoard();

/** Calls being dispatched in this process, by call id: a client's cancel stops one that waits for a free slot. */
const dispatching = new Map<string, AbortController>();

/**
 * Cancels a call of this process that waits for a free slot (the `toolcall.cancel` broadcast): it answers CANCELLED and
 * is never sent. A call already running is the adapter's to cancel (it gets the same broadcast).
 */
export function cancelWaitingCall(callId: string, reason: string): void {
  dispatching.get(callId)?.abort(reason);
}

/** What a dispatch may be given besides the call: test seams. */
export interface DispatchOptions {
  /** The call's retry policy on a lost node; default the catalogue's (`retryPolicyOf`). */
  policy?: RetryPolicy;
  /** Waits out a backoff; default a timer that the call's cancel ends early. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A timer that ends early (without error) when the signal aborts: the loop then answers CANCELLED. */
function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Sends one validated call to its adapter and passes its ToolResult through as it is. The adapter's replica is the one
 * with the fewest calls in flight (LeastInFlight strategy). A replica that is full refuses the call before it starts
 * (QUEUE_FULL): the call then waits here, first come first served, for a replica with a free slot and is sent there,
 * still once; waiting counts against the call's timeout. When the adapter gives no answer, the failure is a ToolResult
 * too: a crash of the adapter's node is TOOL_EXECUTION_ERROR, sent again on another node only for an idempotent tool,
 * up to its catalogue retries with their backoff (decision 0147); a tool that is not idempotent is never sent twice and
 * its failure says so (its effect is unknown). A node gone before the call started is TOOL_UNAVAILABLE, a deadline is
 * TOOL_TIMEOUT.
 */
export async function dispatch(
  ctx: Context,
  tool: AnnouncedTool,
  p: ToolCallParams,
  opts: DispatchOptions = {},
): Promise<ToolResult> {
  const policy = opts.policy ?? retryPolicyOf(tool.tool_id, tool.idempotent);
  const sleep = opts.sleep ?? sleepFor;
  const started = performance.now();
  const timeoutMs = p.timeout_seconds * 1000;
  const deadline = started + timeoutMs;
  const acts = adapterActions(tool.adapter_id);
  const board = boardOf(ctx.broker) ?? fallbackBoard;
  const failed = (error: Parameters<typeof toolFailed>[1]) =>
    toolFailed(tool.tool_id, error, performance.now() - started);
  const timedOut = (waited: boolean) =>
    failed({
      type: 'TOOL_TIMEOUT',
      message: `tool ${tool.tool_id} exceeded its timeout of ${p.timeout_seconds} seconds${waited ? ' (waiting for a free ' + tool.adapter_id + ' replica)' : ''}`,
      details: { timeout_seconds: p.timeout_seconds },
    });
  const cancel = new AbortController();
  dispatching.set(p.call_id, cancel);
  try {
    return await send();
  } finally {
    if (dispatching.get(p.call_id) === cancel) dispatching.delete(p.call_id);
  }

  async function send(): Promise<ToolResult> {
    /** The node a waiting call was handed (a free slot there); undefined: the strategy chooses. */
    let nodeID: string | undefined;
    /** Sends again after a lost node, so far. */
    let retried = 0;
    for (;;) {
      if (cancel.signal.aborted) {
        const reason = String(cancel.signal.reason ?? 'cancelled by the client');
        return failed({ type: 'CANCELLED', message: `call cancelled: ${reason}`, details: reason });
      }
      const remaining = Math.round(deadline - performance.now());
      if (remaining < 1) return timedOut(true);
      try {
        return await call(
          ctx,
          acts.invoke,
          {
            tool_id: tool.tool_id,
            arguments: p.arguments,
            call_id: p.call_id,
            timeout_ms: remaining,
            caller: p.caller,
            progress_node: p.progress_node,
          },
          { timeout: remaining + BUS_GRACE_MS, retries: 0, ...(nodeID ? { nodeID } : {}) },
        );
      } catch (err) {
        const type = (err as { type?: string }).type ?? '';
        if (type === ADAPTER_BUSY_TYPE || (nodeID && NOT_SENT.has(type))) {
          // Refused before it started, or never sent: it has not run, so it waits for a free slot and goes again.
          // A node it was handed but could not be sent to has left the balancer (draining, issue 20) or the bus: what it
          // published is dropped, or the wait would hand it out again at once.
          if (nodeID && NOT_SENT.has(type)) board.forget(nodeID);
          const load = AdapterLoadSchema.safeParse((err as { data?: unknown }).data);
          if (load.success) board.report(load.data);
          const pollMs = Math.min(WAIT_POLL_MS, Math.max(1, deadline - performance.now()));
          nodeID = await board.waitForSlot(tool.adapter_id, { pollMs, signal: cancel.signal });
          continue;
        }
        if (type === 'REQUEST_TIMEOUT') return timedOut(false);
        if (NODE_LOST.has(type) && retried < policy.retries) {
          retried++;
          // A call that never reached a node (none took it) goes again at once; one lost mid-call waits its backoff.
          const wait = NOT_SENT.has(type)
            ? 0
            : Math.min(backoffOf(policy, retried), Math.max(0, deadline - performance.now() - 1));
          if (wait > 0) await sleep(wait, cancel.signal);
          nodeID = undefined;
          continue;
        }
        if (NODE_LOST.has(type) && retried === 0 && type !== 'REQUEST_REJECTED') {
          const message = `adapter ${tool.adapter_id} is unavailable: ${(err as Error).message}`;
          return failed({ type: 'TOOL_UNAVAILABLE', message, details: message });
        }
        if (NODE_LOST.has(type)) return failed(lostNode(tool, policy, retried, err as Error));
        return failed({
          type: 'TOOL_EXECUTION_ERROR',
          message: `adapter ${tool.adapter_id} failed while running ${tool.tool_id}`,
          details: (err as Error).message,
        });
      }
    }
  }
}

/**
 * The failure of a call whose adapter node was lost while it ran, in words a run records: a tool that is not idempotent
 * was not sent again (whether it took effect is unknown: not reconciled automatically, SPEC platform rules); an
 * idempotent one was, as often as its catalogue policy allows.
 */
function lostNode(tool: AnnouncedTool, policy: RetryPolicy, retried: number, err: Error) {
  const lost = `the node of adapter ${tool.adapter_id} running ${tool.tool_id} was lost mid-call`;
  const message =
    policy.retries === 0
      ? `${lost}; ${tool.tool_id} is not idempotent, so it was not sent again: whether it took effect is unknown`
      : `${lost} on each of its ${retried + 1} sends (its catalogue retry policy: ${policy.retries} retries)`;
  return { type: 'TOOL_EXECUTION_ERROR' as const, message, details: err.message };
}
