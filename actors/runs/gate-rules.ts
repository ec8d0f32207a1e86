import type { GateFinding } from '../../contracts/approvals.ts';
import { reworkTargetsOf } from './graph.ts';
import { ended } from './run.resume.ts';
import type { Decision, RunLimits, RunState } from './run.types.ts';

/** The rules of an open gate the run machine and the run view share (pure). */

/**
 * Whether a person may approve over these not-ready findings with an override_reason (decision 0060): every blocking
 * (error) one is overridable, and there is one.
 */
export function overridable(findings: GateFinding[]): boolean {
  const blocking = findings.filter((f) => f.severity === 'error');
  return blocking.length > 0 && blocking.every((f) => f.overridable === true);
}

/**
 * Reworks already taken at `phase`'s gate (SPEC Limits: retries and reworks are per gate, 3 each): the run's recorded
 * rework decisions of that gate, so reworks taken at one gate never use up another's (decision 0146).
 */
export function reworksAt(s: RunState, phase: string): number {
  return s.decisions.filter((d) => d.decision === 'rework' && d.phase === phase).length;
}

/** Decisions a person may take at the run's open gate now (SPEC approval item: allowed_decisions, rework_targets). */
export function allowedDecisions(s: RunState, limits: RunLimits): { allowed: Decision[]; rework_targets: string[] } {
  if (!s.gate || ended(s)) return { allowed: [], rework_targets: [] };
  const allowed: Decision[] = [];
  if (s.gate.ready) allowed.push('approve');
  allowed.push('reject');
  if (s.phases[s.gate.phase].retries < limits.maxRetries) allowed.push('retry');
  const targets =
    reworksAt(s, s.gate.phase) < limits.maxReworks ? reworkTargetsOf(s.flow.definition, s.gate.phase) : [];
  if (targets.length) allowed.push('rework');
  return { allowed, rework_targets: targets };
}
