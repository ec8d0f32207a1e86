import type { Context } from 'moleculer';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import type { Logger } from '../../brokers/logger.ts';
import { HarnessCallsActions as HCalls } from '../../contracts/actions/harness-calls.actions.ts';
import { HarnessConfigActions as HC } from '../../contracts/actions/harness-config.actions.ts';
import { FlowOperationSchema, type FlowOperation } from '../../contracts/design-flows.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';
import { applyOperations } from './patches.ts';
import type { CallPrincipal } from '../../contracts/principal.ts';

/**
 * The flow_generator model (SPEC rule 11): tailors a built-in flow to a request by proposing operations of the closed
 * set (add_phase, remove_phase, modify_phase). Its answer is checked with the proposal's own schema
 * (`FlowOperationSchema`) and applied to the base flow as any caller's operations are; an answer that fails either
 * leaves the base flow unchanged with a note. The result is a proposal like any other: a person approves it.
 */

/** The answer the model must give. */
export const GeneratedFlowSchema = z.object({
  operations: z.array(FlowOperationSchema).max(50),
  reason: z.string().max(2000).default(''),
});

/** Operations for the proposal, why, and a note on how they were made. */
export interface Generated {
  operations: FlowOperation[];
  reason: string;
  note: string;
}

const CALL_MS = 120_000;

function prompt(base: FlowDef): string {
  const phases = base.phases.map((p) => ({
    id: p.id,
    title: p.title,
    objective: p.objective,
    required_deliverables: p.required_deliverables,
    disciplines: p.disciplines,
    gate: p.gate,
  }));
  return [
    `You tailor the design flow ${base.id} (${base.name}) to a request. Its phases, in order: ${JSON.stringify(phases)}.`,
    'Change it only with these operations: {"op": "remove_phase", "phase_id": "<id>"};',
    '{"op": "modify_phase", "phase_id": "<id>", "changes": {<title, objective, required_deliverables, disciplines, gate>}};',
    '{"op": "add_phase", "after": "<id>", "phase": {"id", "title", "objective", "required_deliverables": [],',
    '"disciplines": [], "gate": {"name", "gate_id", "criteria": [], "enforce_constraints": false}}}.',
    'Keep every phase the request needs; remove only phases it clearly does not. Answer with JSON only:',
    '{"operations": [...], "reason": "<one sentence>"}; {"operations": [], "reason": "..."} keeps the flow as it is.',
  ].join(' ');
}

/** The answer's JSON: the whole text, or the first fenced block, or the outermost braces. */
function jsonOf(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  return JSON.parse((fenced ?? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)).trim());
}

/** Checks an answer (pure): the schema, then the operations applied to the base flow; the reason it fails, or null. */
export function checkAnswer(
  base: FlowDef,
  text: string,
): { ok: true; value: z.infer<typeof GeneratedFlowSchema> } | { ok: false; why: string } {
  let raw: unknown;
  try {
    raw = jsonOf(text);
  } catch {
    return { ok: false, why: 'the answer is not JSON' };
  }
  const parsed = GeneratedFlowSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, why: `the answer does not match the operation schema (${parsed.error.issues[0]?.message})` };
  try {
    applyOperations(base, parsed.data.operations);
  } catch (err) {
    return { ok: false, why: `its operations do not apply: ${(err as Error).message}` };
  }
  return { ok: true, value: parsed.data };
}

/**
 * Asks the flow_generator model for operations tailoring `base` to `request`; never throws. No route (or no harness)
 * and a failed or invalid answer give no operations and a note saying why (the deterministic proposal: the base flow).
 */
export async function generateOperations(
  ctx: Context,
  base: FlowDef,
  request: string,
  log: Pick<Logger, 'warn'>,
  principal: CallPrincipal | null = null,
): Promise<Generated> {
  const keep = (why: string): Generated => ({
    operations: [],
    reason: '',
    note: `${why}; the base flow ${base.id} is proposed unchanged`,
  });
  try {
    const route = await call(ctx, HC.resolveRoute, { role: 'flow_generator' });
    if (route.outcome !== 'ok') return keep(`no flow_generator route (${route.failure.message})`);
    const res = await call(
      ctx,
      HCalls.call,
      {
        role: 'flow_generator',
        principal,
        messages: [
          { role: 'system', content: prompt(base) },
          { role: 'user', content: request },
        ],
        max_tokens: 4096,
        temperature: 0,
        timeout_ms: CALL_MS,
      },
      { timeout: CALL_MS + 15_000 },
    );
    if (res.outcome !== 'ok')
      return keep(`the flow_generator call failed (${res.failure.class}: ${res.failure.message})`);
    const who = `${res.route.provider}:${res.route.model}`;
    const checked = checkAnswer(base, res.completion.text);
    if (!checked.ok) {
      log.warn({ model: who, why: checked.why }, 'flow_generator answer ignored');
      return keep(`the flow_generator answer of ${who} was not used: ${checked.why}`);
    }
    const n = checked.value.operations.length;
    return {
      ...checked.value,
      note: `tailored by the flow_generator model ${who} (${n} operation${n === 1 ? '' : 's'})`,
    };
  } catch (err) {
    return keep(`the flow_generator model could not be asked (${(err as Error).message})`);
  }
}
