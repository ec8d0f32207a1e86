import type { Context } from 'moleculer';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import type { Logger } from '../../brokers/logger.ts';
import { HarnessCallsActions as HCalls } from '../../contracts/actions/harness-calls.actions.ts';
import { HarnessConfigActions as HC } from '../../contracts/actions/harness-config.actions.ts';
import type { GateEvaluate } from '../../contracts/actions/runs.actions.ts';
import { GateFindingKindSchema, type GateFinding } from '../../contracts/approvals.ts';

/**
 * The gate_check model (SPEC rule 11, role `gate_check`): asked for extra findings once the deterministic checks ran.
 * It may only add: its findings are tagged `source: 'model'` with severity `info` or `warning` (an `error` answer is
 * capped to `warning`: a model's opinion never blocks an approval a person can give; the deterministic checks decide
 * readiness), and the deterministic findings are passed through untouched. Off the hot path without a route: a model
 * call is made only for an explicit gate_check route (the project's routes, SERVICE_MODEL_ROUTES_PATH or
 * SERVICE_ROUTE_GATE_CHECK; the durable selection, every role's default, does not turn it on).
 */

/** The answer the model must give: JSON, at most 20 findings. */
export const ModelGateAnswerSchema = z.object({
  findings: z
    .array(
      z.object({
        kind: GateFindingKindSchema.default('other'),
        severity: z.enum(['info', 'warning', 'error']).default('warning'),
        message: z.string().min(1).max(2_000),
      }),
    )
    .max(20),
});

/** Route sources that turn the gate_check model on: an explicit gate_check route, not the shared default. */
const EXPLICIT = new Set(['project', 'file', 'env']);
/** The model call's deadline (the harness's own), and the bus deadline of asking it. */
const CALL_MS = 90_000;

const SYSTEM = [
  'You review a design-flow gate after its deterministic checks ran. Add findings those checks could not make: a gate',
  'criterion the phase summary does not show as met, a required deliverable that looks hollow, a risk stated without',
  'an owner. Never repeat or contradict a deterministic finding. Answer with JSON only:',
  '{"findings": [{"kind": "missing_deliverable|ungrounded|constraint_violation|analysis|geometry|other",',
  '"severity": "info|warning", "message": "<one sentence>"}]}; {"findings": []} when you have nothing to add.',
].join(' ');

/** The answer's JSON: the whole text, or the first fenced block, or the outermost braces. */
function jsonOf(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const body = fenced ?? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  return JSON.parse(body.trim());
}

/** Parses the model's answer into tagged findings (pure); null when it is not the schema's JSON. */
export function parseModelFindings(text: string): GateFinding[] | null {
  let raw: unknown;
  try {
    raw = jsonOf(text);
  } catch {
    return null;
  }
  const parsed = ModelGateAnswerSchema.safeParse(raw);
  if (!parsed.success) return null;
  return parsed.data.findings.map((f) => ({
    kind: f.kind,
    severity: f.severity === 'info' ? 'info' : 'warning',
    message: f.message,
    source: 'model' as const,
  }));
}

/**
 * The gate_check model's findings for one gate, or none: no harness on the bus (no call at all), no explicit route
 * (one routing lookup, no model call), a failed call or an answer that does not parse (logged, never thrown).
 */
export async function modelFindings(
  ctx: Context,
  p: GateEvaluate,
  deterministic: GateFinding[],
  log: Pick<Logger, 'warn'>,
): Promise<GateFinding[]> {
  if (!ctx.broker.registry.actions.isAvailable(HC.resolveRoute.action)) return [];
  const at = { run: p.run_id, phase: p.phase, attempt: p.attempt };
  try {
    const r = await call(ctx, HC.resolveRoute, {
      role: 'gate_check',
      ...(p.project_id ? { project_id: p.project_id } : {}),
    });
    if (r.outcome !== 'ok' || !r.route.configured || !EXPLICIT.has(r.route.source)) return [];
    const facts = {
      phase: p.phase,
      attempt: p.attempt,
      objective: p.objective ?? null,
      gate_criteria: p.criteria ?? [],
      required_deliverables: p.required_deliverables,
      phase_summary: p.summary ?? null,
      deterministic_findings: deterministic,
    };
    const res = await call(
      ctx,
      HCalls.call,
      {
        role: 'gate_check',
        phase: p.phase,
        run_id: p.run_id,
        project_id: p.project_id,
        principal: p.principal ?? null,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: JSON.stringify(facts) },
        ],
        max_tokens: 1024,
        temperature: 0,
        timeout_ms: CALL_MS,
      },
      { timeout: CALL_MS + 15_000 },
    );
    if (res.outcome !== 'ok') {
      log.warn({ ...at, failure: res.failure }, 'gate_check model call failed; its findings are left out');
      return [];
    }
    const found = parseModelFindings(res.completion.text);
    if (!found) {
      log.warn(
        { ...at, answer: res.completion.text.slice(0, 500) },
        'gate_check answer ignored: not the findings JSON',
      );
      return [];
    }
    return found;
  } catch (err) {
    log.warn({ ...at, err }, 'gate_check model not asked or not answered; its findings are left out');
    return [];
  }
}
