import { z } from 'zod';
import type { GateFinding } from './gate-findings.ts';
import { RequirementEvidenceSchema, RequirementStatusSchema, type RequirementResult } from './design-flows.ts';
import {
  ANALYSIS_METRICS,
  ENVELOPE_METRICS,
  EvidenceSchema,
  evaluateRequirements,
  type ConstraintInForce,
  type Evidence,
} from './requirements.ts';

/**
 * The one requirement evaluator (issue 28 point 2, decision 0080): a pure function of a run's requirements and the
 * evidence recorded for the run's current geometry. Every view (gate findings, lifecycle table, compliance) maps its
 * output and compares nothing itself; the mapping functions below are the only translations.
 */

/** Status of one requirement: `not_verified` when no evidence states its metric, `stale` when only stale evidence does. */
export { RequirementStatusSchema };
export type RequirementStatus = z.infer<typeof RequirementStatusSchema>;

/** One requirement judged: status, value, evidence reference and the reason in words. */
export const RequirementVerdictSchema = z.object({
  id: z.string(),
  constraint_set: z.string(),
  metric: z.string(),
  operator: z.string(),
  limit: z.number(),
  unit: z.string(),
  severity: z.string(),
  /** Severity `error` and neither passing nor waived: it keeps the run from COMPLETED_VERIFIED. Listed first. */
  blocking: z.boolean(),
  status: RequirementStatusSchema,
  value: z.number().nullable(),
  evidence: RequirementEvidenceSchema.nullable(),
  reason: z.string(),
});
export type RequirementVerdict = z.infer<typeof RequirementVerdictSchema>;

/** Stale evidence of the run's geometry: it can only make a requirement `stale`, never pass or fail it. */
export const StaleEvidenceSchema = EvidenceSchema.extend({
  kind: z.enum(['simulation_result', 'geometry']),
  stale_reason: z.string().nullable(),
});
export type StaleEvidence = z.infer<typeof StaleEvidenceSchema>;

/** Everything the evaluator reads (pure input). `waivers`: set ref (`KEY@n`) → requirement id → reason. */
export interface RunRequirementInput {
  constraints: ConstraintInForce[];
  result?: Evidence;
  geometry?: Evidence;
  verification?: Evidence;
  stale?: StaleEvidence[];
  waivers?: Record<string, Record<string, string>>;
}

/**
 * The waivers a constraint set revision states in its `waivers` property, requirement id -> reason: `{ID: reason}`,
 * `{ID: {reason}}`, or a list of ids or `{id, reason}`. A waiver stating no reason takes `fallback` (the revision's
 * change reason). The one reading of a set's waivers: the twin's evidence (every live view) and compliance use it.
 */
export function waiversOf(w: unknown, fallback = ''): Record<string, string> {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const out: Record<string, string> = {};
  if (isObj(w)) for (const [id, x] of Object.entries(w)) out[id] = (isObj(x) ? text(x.reason) : text(x)) || fallback;
  else if (Array.isArray(w))
    for (const x of w) {
      const id = isObj(x) ? text(x.id) : text(x);
      if (id && !Object.hasOwn(out, id)) out[id] = (isObj(x) ? text(x.reason) : '') || fallback;
    }
  return out;
}

/** A run's evidence as the twin answers it (`twin.gateEvidence`), absent parts null; every live view passes it whole. */
export interface RunEvidence {
  constraints: ConstraintInForce[];
  result?: Evidence | null;
  geometry?: Evidence | null;
  verification?: Evidence | null;
  stale?: StaleEvidence[];
  waivers?: Record<string, Record<string, string>>;
}

/**
 * The evaluator over the twin's answer: the one call the gate, the lifecycle view, compliance and the approvals item
 * make, so each passes the same inputs (the run's waivers included) and none can leave one out.
 */
export const evaluateEvidence = (ev: RunEvidence): RequirementVerdict[] =>
  evaluateRun({
    constraints: ev.constraints,
    result: ev.result ?? undefined,
    geometry: ev.geometry ?? undefined,
    verification: ev.verification ?? undefined,
    stale: ev.stale ?? [],
    waivers: ev.waivers ?? {},
  });

/** Evaluates every requirement of the run; blocking ones first, the order of the constraints kept otherwise. */
export function evaluateRun(inp: RunRequirementInput): RequirementVerdict[] {
  const compared = evaluateRequirements(inp.constraints, inp.result, inp.geometry, inp.verification);
  const out = compared.map((r, i): RequirementVerdict => {
    const { status, note, mandatory, ...rest } = r;
    const waiver = inp.waivers?.[r.constraint_set]?.[r.id];
    if (waiver !== undefined)
      return {
        ...rest,
        blocking: false,
        status: 'waived',
        reason: `waived on ${r.constraint_set}: ${waiver || 'no reason given'}`,
      };
    if (status !== 'no_data') return { ...rest, blocking: mandatory && status === 'fail', status, reason: note };
    const old = staleValue(inp.constraints[i], inp.stale ?? []);
    if (old)
      return {
        ...rest,
        blocking: mandatory,
        status: 'stale',
        value: null,
        evidence: { kind: old.ev.kind, node_id: old.ev.node_id, ref: old.ev.ref },
        reason: `only stale evidence states ${r.metric}: ${old.ev.ref ?? old.ev.node_id} gave ${old.value}${r.unit ? ` ${r.unit}` : ''} (${old.ev.stale_reason ?? 'marked stale'}): not compared, so not passed`,
      };
    return { ...rest, blocking: mandatory, status: 'not_verified', reason: note };
  });
  return [...out.filter((v) => v.blocking), ...out.filter((v) => !v.blocking)];
}

function staleValue(c: ConstraintInForce, stale: StaleEvidence[]) {
  for (const ev of stale) {
    const [r] = evaluateRequirements(
      [c],
      ev.kind === 'simulation_result' ? ev : undefined,
      ev.kind === 'geometry' ? ev : undefined,
    );
    if (r.status !== 'no_data' && r.value !== null) return { ev, value: r.value };
  }
  return undefined;
}

/** The lifecycle table's row (RequirementResult): pass and fail as judged, waived as pass, anything else no_data. */
export function lifecycleRowOf(v: RequirementVerdict): RequirementResult {
  const { blocking: _b, status, reason, ...rest } = v;
  const mapped = status === 'waived' ? 'pass' : status === 'pass' || status === 'fail' ? status : 'no_data';
  return { ...rest, mandatory: v.severity === 'error', status: mapped, verdict: status, note: reason };
}

/** The label a finding names a requirement by. */
export const requirementLabel = (v: RequirementVerdict) =>
  `${v.id} (${v.constraint_set}) ${v.metric} ${v.operator} ${v.limit} ${v.unit}`.trim();

/**
 * The gate finding of a requirement (none when it passes or is waived). A failure keeps its severity; a requirement
 * not compared blocks when an analysis or envelope metric (the phase should have produced it), else warns.
 */
export function gateFindingOf(v: RequirementVerdict): GateFinding | null {
  if (v.status === 'pass' || v.status === 'waived') return null;
  const kind = ANALYSIS_METRICS.has(v.metric) ? 'analysis' : ENVELOPE_METRICS.includes(v.metric) ? 'geometry' : 'other';
  if (v.status === 'fail')
    return {
      kind: kind === 'other' ? 'constraint_violation' : kind,
      severity: v.severity,
      message: `violated: ${requirementLabel(v)}, but ${v.reason}`,
    };
  const word = v.status === 'stale' ? 'stale' : 'not evaluated';
  return {
    kind,
    severity: kind === 'other' ? 'warning' : 'error',
    message: `${word}: ${requirementLabel(v)} — ${v.reason}`,
  };
}

/**
 * A gate's constraint findings (the gate view): each requirement's finding in the evaluator's order, blocking first.
 * A requirement that passes or is waived has none: the whole table travels beside the findings as the approval
 * item's `verdicts` (decision 0080, amendment).
 */
export const gateFindingsOf = (verdicts: RequirementVerdict[]): GateFinding[] =>
  verdicts.map(gateFindingOf).filter((f): f is GateFinding => f !== null);

/** The status a gate finding states for a requirement (inverse of gateFindingOf; pass when it has no finding). */
export function statusOfFinding(f: GateFinding | null): 'pass' | 'fail' | 'not_verified' | 'stale' {
  if (!f) return 'pass';
  if (f.message.startsWith('violated:')) return 'fail';
  return f.message.startsWith('stale:') ? 'stale' : 'not_verified';
}
