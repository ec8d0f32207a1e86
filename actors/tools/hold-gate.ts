import type { Context } from 'moleculer';
import { call } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import { HoldsActions } from '../../contracts/actions/approvals.actions.ts';
import type { ToolCallParams } from '../../contracts/actions/tools.actions.ts';
import { toolFailed, type HeldDetails, type ToolResult } from '../../contracts/tool-result.ts';

/** Slack past the longest hold window for the `holds.request` bus call (the holds reaper ends the hold first). */
const HOLD_SLACK_S = 60;

/**
 * Puts a held call before a person through the `holds` actor and waits (SPEC "Events", "Held-call outcomes"):
 * undefined = approved, run it; otherwise the unapproved outcome (-32001 `approval_required`), and the call never runs.
 * Without a `holds` actor on the bus the call is refused with outcome not_configured.
 */
export async function gateHeldCall(
  ctx: Context,
  infra: Infra,
  toolId: string,
  p: ToolCallParams,
  reason: string,
): Promise<ToolResult | undefined> {
  const unapproved = (message: string, details: HeldDetails) =>
    toolFailed(toolId, { type: 'APPROVAL_REQUIRED', message, details });
  if (!ctx.broker.registry.getActionEndpoints(HoldsActions.request.action)?.hasAvailable()) {
    infra.log.info(
      { tool: toolId, caller: p.caller.kind, session: p.caller.session_id, outcome: 'not_configured' },
      'mcp_tool_call_held_for_approval',
    );
    return unapproved(
      `${toolId} needs a person's approval before it runs, and no approval gate is configured on this server, so the call was refused and not run (outcome not_configured)`,
      { outcome: 'not_configured' },
    );
  }
  const longest = Math.max(
    infra.config.SERVICE_APPROVAL_HOLD_SECONDS,
    infra.config.SERVICE_APPROVAL_HOLD_PROGRESS_SECONDS,
    p.hold_seconds ?? 0,
  );
  try {
    const o = await call(
      ctx,
      HoldsActions.request,
      {
        call_id: p.call_id,
        tool_id: toolId,
        arguments: p.arguments,
        caller: p.caller,
        progress_node: p.progress_node,
        reason_held: reason,
        has_progress: p.has_progress ?? false,
        hold_seconds: p.hold_seconds,
      },
      { timeout: (longest + HOLD_SLACK_S) * 1000, retries: 0 },
    );
    if (o.outcome === 'approved') return undefined;
    const { outcome, message, ...rest } = o;
    return unapproved(message, { outcome, ...rest });
  } catch (err) {
    infra.log.warn({ tool: toolId, err: (err as Error).message }, 'approval gate failed: the held call is not run');
    return unapproved(
      `${toolId} was not run: it needs a person's approval and the approval gate failed while holding it (${(err as Error).message}); outcome cancelled`,
      { outcome: 'cancelled' },
    );
  }
}
