import { call } from '../../brokers/actions.ts';
import { HarnessCallsActions as HCalls } from '../../contracts/actions/harness-calls.actions.ts';
import { DISCIPLINE_PROFILE, PHASE_TOOL_BASE, PROFILES } from '../../contracts/profiles.ts';
import { groundReply, statusBanner } from '../../contracts/grounding.ts';
import type { HarnessTurnResult } from '../../contracts/harness-turns.ts';
import type { PhaseDef } from '../../contracts/flow-defs.ts';
import { serviceCaller, type PhaseInput, type PhaseOutcome } from './executor.ts';
import type { BrainRoute } from './phase-route.ts';
import { phaseMessages } from './phase-prompt.ts';
import { callPrincipalOf } from './run.view.ts';
import type { Deliverable, FailureKind } from './run.types.ts';

/** Model calls at most in one phase turn; a model still asking for tools after them fails the phase (reasoning). */
export const PHASE_MAX_STEPS = 16;
/** The turn's deadline on the bus: every step is a routed call with its own time-outs; this only bounds a lost answer. */
const TURN_TIMEOUT_MS = 60 * 60 * 1000;

/** The tools offered to a phase (TOOLS.md "Profiles", last paragraph): the phase base set plus each discipline's profile. */
export function phaseTools(phase: Pick<PhaseDef, 'disciplines'>): string[] {
  const extra = phase.disciplines.flatMap((d) =>
    Object.hasOwn(DISCIPLINE_PROFILE, d) ? (PROFILES.get(DISCIPLINE_PROFILE[d]) ?? []) : [],
  );
  return [...new Set([...PHASE_TOOL_BASE, ...extra])];
}

/** The deliverable type a successful twin write makes, from its tool id and arguments (none: not a deliverable). */
const TYPE_OF: Record<string, (args: Record<string, unknown>) => unknown> = {
  'twin.record_decision': () => 'design_decision',
  'twin.record_constraint_set': () => 'constraint_set',
  'twin.commit_geometry': () => 'cad_model',
  'twin.record_component_selection': () => 'component_selection',
  'twin.record_engineering_entity': (a) => a.entity_type,
  'twin.record_document': (a) => a.document_type,
};

/** What the turn's successful tool calls wrote: the deliverables (node ids from their results) and the result texts. */
export function turnWrites(r: HarnessTurnResult): { deliverables: Deliverable[]; results: string[] } {
  const args = new Map<string, Record<string, unknown>>();
  const content = new Map<string, string>();
  for (const m of r.messages) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) args.set(c.id, c.arguments);
    if (m.role === 'tool') content.set(m.tool_call_id, m.content);
  }
  const deliverables: Deliverable[] = [];
  const results: string[] = [];
  for (const c of r.steps.flatMap((s) => s.tool_calls)) {
    const text = content.get(c.call_id);
    if (c.status !== 'success' || text === undefined) continue;
    results.push(text);
    const typeOf = c.tool_id && Object.hasOwn(TYPE_OF, c.tool_id) ? TYPE_OF[c.tool_id] : undefined;
    const type = typeOf?.(args.get(c.call_id) ?? {});
    let data: { node_id?: unknown; item_ref?: unknown } = {};
    try {
      data = (JSON.parse(text) as { data?: typeof data }).data ?? {};
    } catch {
      continue; // an envelope that is not JSON grounds nothing
    }
    if (typeof type !== 'string' || typeof data.node_id !== 'string') continue;
    if (deliverables.some((d) => d.node_id === data.node_id)) continue; // a cached repeat of the same write
    deliverables.push({
      type,
      node_id: data.node_id,
      ...(typeof data.item_ref === 'string' ? { ref: data.item_ref } : {}),
    });
  }
  return { deliverables, results };
}

const KINDS: readonly FailureKind[] = [
  'transient',
  'tool',
  'data',
  'capability',
  'environment',
  'reasoning',
  'unknown',
];

/** Judges a finished turn (pure): grounded reply, required deliverables written by successful calls, else the failure. */
export function judgeTurn(input: PhaseInput, r: HarnessTurnResult, sources: string[]): PhaseOutcome {
  const who = `the model brain of phase ${input.phase.id}`;
  if (r.outcome === 'failed') {
    const f = r.failure;
    const kind = f && KINDS.includes(f.class) ? f.class : 'unknown';
    return { ok: false, kind, message: `${who}: a model call failed (${f?.class ?? 'unknown'}): ${f?.message ?? ''}` };
  }
  if (r.outcome === 'step_limit')
    return {
      ok: false,
      kind: 'reasoning',
      message: `${who} still asked for tools after ${r.steps.length} model calls`,
    };
  const { deliverables, results } = turnWrites(r);
  const calls = r.steps.flatMap((s) => s.tool_calls).map((c) => ({ tool_id: c.tool_id, status: c.status }));
  const banner = statusBanner(
    groundReply({ reply: r.text, toolCalls: calls, sources: [...sources, ...results] }).banners,
  );
  if (banner)
    return { ok: false, kind: 'reasoning', message: `${who} answered ungrounded: ${banner.text.replace(/^> ⚠ /, '')}` };
  const have = new Set(deliverables.map((d) => d.type));
  const missing = input.phase.required_deliverables.filter((t) => !have.has(t));
  if (missing.length)
    return {
      ok: false,
      kind: 'design',
      message: `${who} produced no ${missing.join(', ')} by a successful tool call (required deliverables of the phase)${deliverables.length ? `; it wrote ${deliverables.map((d) => d.type).join(', ')}` : ''}`,
    };
  return {
    ok: true,
    summary: r.text.trim().slice(0, 4000) || `${input.phase.id} done by the model brain`,
    deliverables,
  };
}

/**
 * Runs a phase as one model-driven turn (`harness.turn`) on the given route: the run's service caller (approval mode
 * forward: a write that would be held is refused), the phase's tools, the phase prompt; then `judgeTurn`.
 */
export async function runPhaseBrain(
  input: PhaseInput,
  route: Extract<BrainRoute, { ok: true }>,
): Promise<PhaseOutcome> {
  const messages = phaseMessages(input);
  const r = await call(
    input.bus,
    HCalls.turn,
    {
      role: route.role,
      ...(route.phase_model ? { phase_model: route.phase_model } : {}),
      phase: input.phase.id,
      run_id: input.run_id,
      project_id: input.project_id,
      conversation_id: null,
      principal: callPrincipalOf(input.request),
      messages,
      tools: {
        caller: input.caller ?? serviceCaller(input),
        only: phaseTools(input.phase),
        exclude_commit_capable: false,
        timeout_seconds: 600,
      },
      max_steps: PHASE_MAX_STEPS,
      max_tokens: 4096,
    },
    { timeout: TURN_TIMEOUT_MS },
  );
  return judgeTurn(
    input,
    r,
    messages.map((m) => m.content),
  );
}
