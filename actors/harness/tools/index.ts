import crypto from 'node:crypto';
import type { Context } from 'moleculer';
import { call } from '../../../brokers/actions.ts';
import type { Caller } from '../../../contracts/actions/adapters.actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';

export { capTools, COMPANION_GROUPS, OPENAI_TOOL_CAP, SESSION_CRITICAL, type CappableTool } from './cap.ts';
export { envelopeOf, type ToolEnvelope } from './envelope.ts';
export { fromSafeName, toSafeName, ToolNames } from './names.ts';
export { planToolOffer, type NativeTool, type OfferedTool, type OfferOptions, type ToolOfferPlan } from './offer.ts';
export {
  approvalPolicy,
  canonicalJson,
  ToolTurn,
  toolMessages,
  type ToolObservation,
  type ToolStepDeps,
} from './step.ts';

/** The registry's listing for a model request (`tools.list`, optionally one profile). */
export async function listTools(ctx: Pick<Context, 'call'>, profile?: string) {
  return (await call(ctx, ToolsActions.list, profile ? { profile } : {})).tools;
}

/**
 * `callTool` of a ToolTurn through the registry (`tools.call`): the same argument validation and hold policy as an
 * MCP caller. The caller says who the model acts for: `remote` (a person's chat, approval mode hold) or `service`
 * (a design-flow phase, approval mode forward: SPEC rule 9).
 */
export function registryCaller(
  ctx: Pick<Context, 'call'>,
  caller: Caller,
  opts: { timeout_seconds?: number; hold_seconds?: number } = {},
): (toolId: string, args: Record<string, unknown>) => Promise<ToolResult> {
  const timeout = opts.timeout_seconds ?? 120;
  return (toolId, args) =>
    call(
      ctx,
      ToolsActions.call,
      {
        name: toolId,
        arguments: args,
        call_id: `llm-${crypto.randomUUID()}`,
        caller,
        timeout_seconds: timeout,
        ...(opts.hold_seconds ? { hold_seconds: opts.hold_seconds } : {}),
      },
      // A held call waits for a person: the bus request outlives the tool's own deadline (the registry answers first).
      { timeout: 0, retries: 0 },
    );
}
export { runSearchTools, SEARCH_TOOLS, SEARCH_TOOLS_ID, searchTools } from './search.ts';
