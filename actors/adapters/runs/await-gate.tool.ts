import { ApprovalsActions } from '../../../contracts/actions/approvals.actions.ts';
import { OverrideField } from '../../../contracts/approvals.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R, type RunView } from '../../../contracts/actions/runs.actions.ts';
import { defineTool, type ToolContext } from '../kit/tool.ts';
import { flowCall } from './common.ts';

const POLL_MS = 250;
const ENDED = ['completed', 'failed', 'rejected', 'cancelled'];

/** The client's answer to `elicitation/create`. */
const AnswerSchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z
    .object({
      decision: z.enum(['approve', 'reject', 'retry', 'rework']),
      reason: z.string().max(2000).default(''),
      to_phase: z.string().max(200).default(''),
      // The person's reason to approve over overridable findings (decision 0060): the same field as the decision body.
      ...OverrideField,
    })
    .optional(),
});

/**
 * The identity of an answer given in the client (SPEC Gateway rules 2 and 6): the one the gateway gave the session
 * (`decision_elicitation`: `local:elicitation` unverified today, never a field of the form), recorded with surface mcp.
 */
const identityOf = (who: { approver: string; verified: boolean; client_id?: string | null }) => ({
  approver: who.approver,
  approver_verified: who.verified,
  ...(who.client_id ? { client_id: who.client_id } : {}),
  surface: 'mcp' as const,
  on_behalf_of: null,
  agent: null,
});

/** Polls the run until a gate is open, the run ended, or the wait is over (the call's signal also stops it). */
async function nextGate(tc: ToolContext, runId: string, waitMs: number): Promise<RunView> {
  const until = Date.now() + waitMs;
  for (;;) {
    const run = await flowCall(call(tc.ctx, R.get, { run_id: runId }));
    if (run.gate || ENDED.includes(run.status) || Date.now() >= until) return run;
    await delay(POLL_MS, undefined, { signal: tc.signal });
  }
}

/**
 * The form a person answers: the offered decisions, a reason, and the rework targets when rework is offered. A gate
 * not ready only for overridable findings (decision 0060) also offers approve with an override reason, pre-filled with
 * the reason the agent proposed (`proposed`): only the person's answer is recorded.
 */
function gateForm(run: RunView, proposed?: string) {
  const g = run.gate!;
  const overridable = g.overridable === true && !g.allowed_decisions.includes('approve');
  const decisions = overridable ? ['approve', ...g.allowed_decisions] : g.allowed_decisions;
  const findings = g.findings.length
    ? g.findings.map((f) => `- ${f.kind} (${f.severity}): ${f.message}`).join('\n')
    : '- none';
  const message = `Run ${run.id} (${run.design_flow}) waits at the gate "${g.name}" of phase ${g.phase} (attempt ${g.attempt}), which is ${g.ready ? 'ready' : 'NOT ready (approve is refused)'}${g.stalled ? ' and stalled' : ''}.\nFindings:\n${findings}\nDecide: ${decisions.join(', ')}.${overridable ? ' To approve over the findings, give an override reason: it is recorded with your decision.' : ''}`;
  const properties: Record<string, unknown> = {
    decision: {
      type: 'string',
      title: 'Decision',
      enum: decisions,
      description: 'approve, reject, retry (re-run this phase) or rework (back to an earlier phase)',
    },
    reason: { type: 'string', title: 'Reason', maxLength: 2000, description: 'required for reject, retry and rework' },
  };
  if (overridable)
    properties.override_reason = {
      type: 'string',
      title: 'Override reason',
      maxLength: 2000,
      description: 'required to approve over the findings: why the run may go on although they stand',
      ...(proposed ? { default: proposed } : {}),
    };
  if (g.rework_targets.length && g.allowed_decisions.includes('rework')) {
    properties.to_phase = {
      type: 'string',
      title: 'Rework to phase',
      enum: g.rework_targets,
      description: 'for rework: the phase to go back to',
    };
  }
  return { mode: 'form', message, requestedSchema: { type: 'object', properties, required: ['decision'] } };
}

const gateSummary = (run: RunView) =>
  run.gate
    ? {
        phase: run.gate.phase,
        attempt: run.gate.attempt,
        gate_id: run.gate.gate_id,
        name: run.gate.name,
        ready: run.gate.ready,
        allowed_decisions: run.gate.allowed_decisions,
        findings: run.gate.findings,
      }
    : null;

/**
 * `flow.await_gate`: waits for the run's next gate and asks the person through an elicitation (never held: it asks
 * itself). An accepted answer is decided through `approvals.decide` with the session's identity from surface mcp. A
 * session the gateway does not ask for decisions (no elicitation declared, or SERVICE_ELICITATION_APPROVALS: no client
 * approves its own call) is not asked: the answer is `awaiting_gate` at once with the approval id and where to decide
 * it; so is a prompt the client cannot show or the person declines.
 */
export const awaitGateTool = defineTool({
  name: 'await_gate',
  description:
    'Wait for the next gate of a design-flow run and ask the person to decide it in the client (elicitation). Answers decided, awaiting_gate (no prompt possible, or declined: decide on the Approvals page), running (no gate yet) or ended.',
  input: z.object({
    run_id: z.string().min(1),
    wait_seconds: z.number().int().min(0).max(3600).default(90).describe('how long to wait for a gate to open'),
    override_reason: OverrideField.override_reason.describe(
      "a reason to approve over the gate's overridable findings (decision 0060), proposed to the person: it pre-fills the form's override reason, and only the reason the person answers is recorded",
    ),
  }),
  handler: async (a, tc) => {
    const run = await nextGate(tc, a.run_id, a.wait_seconds * 1000);
    const base = { run_id: run.id, run_status: run.status };
    if (ENDED.includes(run.status))
      return {
        ...base,
        status: 'ended',
        gate: null,
        note: `the run ended (${run.status})${run.ended?.message ? `: ${run.ended.message}` : ''}`,
      };
    if (!run.gate)
      return {
        ...base,
        status: 'running',
        gate: null,
        note: `no gate opened within ${a.wait_seconds} s; call flow.await_gate again`,
      };
    const where = `decide it on the Approvals page (gate:${run.id}) or with POST /v1/runs/${run.id}/approval`;
    // A session that declared no elicitation is never asked (the request would wait for an answer that cannot come);
    // nor is one whose answer would not be a person's decision (the gateway sets decision_elicitation only for those).
    const who = tc.caller.decision_elicitation;
    if (!who)
      return {
        ...base,
        status: 'awaiting_gate',
        gate: gateSummary(run),
        approval_id: `gate:${run.id}`,
        note: tc.caller.can_elicit
          ? `gate decisions are not asked in this client (a client does not approve its own run); a person decides: ${where}`
          : `the client cannot show a prompt (its session declared no elicitation); ${where}`,
      };
    let raw: unknown;
    try {
      raw = await tc.request('elicitation/create', gateForm(run, a.override_reason));
    } catch (err) {
      if (tc.signal.aborted) throw err;
      return {
        ...base,
        status: 'awaiting_gate',
        gate: gateSummary(run),
        approval_id: `gate:${run.id}`,
        note: `the client cannot show a prompt (${(err as Error).message}); ${where}`,
      };
    }
    const answer = AnswerSchema.safeParse(raw);
    if (!answer.success || answer.data.action !== 'accept' || !answer.data.content) {
      const why = answer.success
        ? `the person chose ${answer.data.action}`
        : 'the client answered with something that is not an elicitation result';
      return {
        ...base,
        status: 'awaiting_gate',
        gate: gateSummary(run),
        approval_id: `gate:${run.id}`,
        note: `${why}; the gate stays open: ${where}`,
      };
    }
    const c = answer.data.content;
    // Through the one approvals decision path, so identity rules, persistence and the decision metric apply. The
    // decision names the gate the form showed: if another gate is open by now, it is refused (CONFLICT), not moved.
    const target = { phase: run.gate.phase, attempt: run.gate.attempt };
    await flowCall(
      call(tc.ctx, ApprovalsActions.decide, {
        id: `gate:${run.id}`,
        decision: c.decision,
        reason: c.reason,
        to_phase: c.to_phase,
        decider: identityOf(who),
        idem: `elicitation:${tc.callId}`,
        target,
        ...(c.override_reason !== undefined ? { override_reason: c.override_reason } : {}),
      }),
    );
    const after = await flowCall(call(tc.ctx, R.get, { run_id: run.id }));
    return {
      ...base,
      run_status: after.status,
      status: 'decided',
      gate: gateSummary(run),
      decision: {
        decision: c.decision,
        reason: c.reason,
        to_phase: c.to_phase,
        ...(c.override_reason !== undefined ? { override_reason: c.override_reason } : {}),
        approver: who.approver,
        approver_verified: who.verified,
        surface: 'mcp',
      },
      note: `${c.decision} recorded at the gate "${run.gate.name}"`,
    };
  },
});
