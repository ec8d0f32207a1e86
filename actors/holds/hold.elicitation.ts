import { z } from 'zod';
import type { Decider } from '../../contracts/actions/approvals.actions.ts';
import { approvalIdOf, type HoldCommand, type HoldEnv, type HoldState } from './hold.machine.ts';
import { approvalsPage } from './hold.outcome.ts';

/** Arguments shown in the question are cut here: the Approvals page shows them whole. */
const ARGS_SHOWN = 1500;

/** Whose answer a question put in the client is: what the gateway set on the caller (`decision_elicitation`). */
export type ElicitationIdentity = { approver: string; verified: boolean; client_id?: string | null };

/**
 * The person answering in the MCP client (SPEC "Authentication / Gateway" 2): the identity the gateway gave the session
 * (`local:elicitation` unverified today), recorded with surface `mcp` (docs/decisions/0020).
 */
export function elicitationDecider(who: ElicitationIdentity): Decider {
  return {
    approver: who.approver,
    approver_verified: who.verified,
    ...(who.client_id ? { client_id: who.client_id } : {}),
    surface: 'mcp',
    on_behalf_of: null,
    agent: null,
  };
}

/** `elicitation/create` params of a held call: a form with a required decision (approve or reject) and a reason. */
export function questionOf(s: HoldState, env: HoldEnv): Record<string, unknown> {
  const args = JSON.stringify(s.arguments);
  const shown = args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args;
  return {
    mode: 'form',
    message:
      `Approve running ${s.tool_id}? ${s.reason_held ?? ''}. Arguments: ${shown}. ` +
      `Approval ${approvalIdOf(s.id)} (also on the Approvals page, ${approvalsPage(env)}); without an answer in ${s.window_seconds} s it is not run.`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          description: 'approve runs the call now; reject refuses it',
          enum: ['approve', 'reject'],
        },
        reason: { type: 'string', title: 'Reason', description: 'optional note kept with the decision' },
      },
      required: ['decision'],
    },
  };
}

const Answer = z.discriminatedUnion('action', [
  z.looseObject({
    action: z.literal('accept'),
    content: z.looseObject({ decision: z.enum(['approve', 'reject']), reason: z.string().optional() }),
  }),
  z.looseObject({ action: z.literal('decline') }),
  z.looseObject({ action: z.literal('cancel') }),
]);

/**
 * The client's answer as a command: accept with a decision decides it; decline rejects; cancel (the person dismissed
 * the question) closes the hold. Anything unreadable rejects: nothing runs without a clear approval.
 */
export function answerToCommand(answer: unknown, who: ElicitationIdentity): HoldCommand {
  const decider = elicitationDecider(who);
  const a = Answer.safeParse(answer);
  if (!a.success)
    return {
      type: 'decide',
      decision: 'reject',
      reason: "the client's answer could not be read; nothing runs without a clear approval",
      decider,
      inClient: true,
    };
  if (a.data.action === 'accept')
    return {
      type: 'decide',
      decision: a.data.content.decision,
      reason: a.data.content.reason ?? '',
      decider,
      inClient: true,
    };
  if (a.data.action === 'decline')
    return { type: 'decide', decision: 'reject', reason: 'declined in the client', decider, inClient: true };
  return { type: 'cancel', reason: 'the person dismissed the question in the client without deciding' };
}
