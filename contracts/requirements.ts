import { z } from 'zod';
import type { RequirementResult } from './design-flows.ts';

/**
 * Requirement evaluation shared by the runs actor (the lifecycle view) and the gates actor (constraint findings): one
 * set of pure rules over the evidence the twin's query actions answer.
 */

/** A constraint as `twin.record_constraint_set` stores it. */
export const ConstraintDefSchema = z.object({
  id: z.string().optional(),
  metric: z.string(),
  operator: z.string().optional(),
  limit: z.number(),
  unit: z.string().optional(),
  severity: z.string().optional(),
});
export type ConstraintDef = z.infer<typeof ConstraintDefSchema>;

/** A constraint in force, with the constraint set revision (`KEY@n`) it comes from. */
export const ConstraintInForceSchema = z.object({ set: z.string(), c: ConstraintDefSchema });
export type ConstraintInForce = z.infer<typeof ConstraintInForceSchema>;

/** A twin node offered as evidence: the latest valid simulation result, or the current geometry. */
export const EvidenceSchema = z.object({
  node_id: z.string(),
  ref: z.string().nullable(),
  properties: z.record(z.string(), z.unknown()),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

/** Metrics only a simulation result can state (the gate checks read the same names). */
export const ANALYSIS_METRICS = new Set(['max_von_mises_mpa', 'max_displacement_mm', 'safety_factor']);
/** Envelope metrics read from the geometry's bounding box, largest extent first. */
export const ENVELOPE_METRICS = ['length_mm', 'width_mm', 'height_mm'];

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `value operator limit` holds (an unknown operator never holds). */
export function holds(value: number, operator: string, limit: number): boolean {
  switch (operator) {
    case '<=':
      return value <= limit;
    case '<':
      return value < limit;
    case '>=':
      return value >= limit;
    case '>':
      return value > limit;
    case '==':
      return Math.abs(value - limit) <= 1e-9 * Math.max(1, Math.abs(limit));
    case '!=':
      return value !== limit;
    default:
      return false;
  }
}

/** A metric from a simulation result: stated directly, or the safety factor from a stated yield strength and stress. */
function fromResult(metric: string, p: Record<string, unknown>): number | undefined {
  const direct = num(p[metric]);
  if (direct !== undefined || metric !== 'safety_factor') return direct;
  const material = (p.material ?? {}) as Record<string, unknown>;
  const yieldMpa = num(p.yield_mpa) ?? num(p.yield_strength_mpa) ?? num(material.yield_mpa);
  const stress = num(p.max_von_mises_mpa);
  return yieldMpa !== undefined && stress !== undefined && stress > 0 ? yieldMpa / stress : undefined;
}

/** A metric a verification record states in its `values` (a V&V test_result: computed or measured, never an FEA metric). */
function fromVerification(metric: string, p: Record<string, unknown>): number | undefined {
  const values = p.values;
  return values && typeof values === 'object' && Object.hasOwn(values, metric)
    ? num((values as Record<string, unknown>)[metric])
    : undefined;
}

const MISSING = {
  simulation_result: 'valid simulation result of the current geometry',
  geometry: 'current geometry',
  test_result: 'verification record',
} as const;

const NOTE = {
  simulation_result: 'the latest valid result of the current geometry',
  geometry: 'the current geometry',
  test_result: "the run's latest verification record",
} as const;

/** A metric from the geometry: a stated numeric property, or an extent of its bounding box. */
function fromGeometry(metric: string, p: Record<string, unknown>): number | undefined {
  const direct = num(p[metric]);
  if (direct !== undefined) return direct;
  const i = ENVELOPE_METRICS.indexOf(metric);
  const bbox = p.bounding_box as { min?: number[]; max?: number[] } | undefined;
  if (i < 0 || !bbox?.min || !bbox?.max) return undefined;
  const extents = bbox.max.map((v, k) => Math.abs(v - bbox.min![k])).sort((a, b) => b - a);
  return extents[i] === undefined ? undefined : Math.round(extents[i] * 1000) / 1000;
}

/**
 * Evaluates each requirement against current evidence (pure). Analysis metrics read only the latest valid simulation
 * result of the current geometry, envelope metrics only the geometry; other metrics any stated value, including the
 * `values` of the run's latest verification record (a V&V test_result), which never states an analysis metric. A requirement
 * with no value to compare is `no_data`, which never passes (SPEC "Completion verdict").
 */
export function evaluateRequirements(
  constraints: ConstraintInForce[],
  result: Evidence | undefined,
  geometry: Evidence | undefined,
  verification?: Evidence,
): RequirementResult[] {
  return constraints.map(({ set, c }, i) => {
    const operator = c.operator ?? '<=';
    const severity = c.severity ?? 'error';
    const base = {
      id: c.id ?? `C${i + 1}`,
      constraint_set: set,
      metric: c.metric,
      operator,
      limit: c.limit,
      unit: c.unit ?? '',
      severity,
      mandatory: severity === 'error',
    };
    const candidates: {
      kind: 'simulation_result' | 'geometry' | 'test_result';
      ev: Evidence | undefined;
      read: (m: string, p: Record<string, unknown>) => number | undefined;
    }[] = ANALYSIS_METRICS.has(c.metric)
      ? [{ kind: 'simulation_result', ev: result, read: fromResult }]
      : ENVELOPE_METRICS.includes(c.metric)
        ? [{ kind: 'geometry', ev: geometry, read: fromGeometry }]
        : [
            { kind: 'simulation_result', ev: result, read: fromResult },
            { kind: 'geometry', ev: geometry, read: fromGeometry },
            { kind: 'test_result', ev: verification, read: fromVerification },
          ];
    for (const { kind, ev, read } of candidates) {
      const value = ev ? read(c.metric, ev.properties) : undefined;
      if (value === undefined || !ev) continue;
      const pass = holds(value, operator, c.limit);
      return {
        ...base,
        status: pass ? ('pass' as const) : ('fail' as const),
        value,
        evidence: { kind, node_id: ev.node_id, ref: ev.ref },
        note: `${NOTE[kind]} gives ${value}${base.unit ? ` ${base.unit}` : ''}`,
      };
    }
    const missing = candidates.every((x) => !x.ev)
      ? `no ${candidates.map((x) => MISSING[x.kind]).join(' and no ')}`
      : `no current evidence states ${c.metric}`;
    return {
      ...base,
      status: 'no_data' as const,
      value: null,
      evidence: null,
      note: `${missing}: not compared, so not passed`,
    };
  });
}
