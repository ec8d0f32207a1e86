import type { LifecyclePhase, LifecycleView, RequirementResult } from '../../contracts/design-flows.ts';
import type { CompletionVerdict } from '../../contracts/flows.ts';
import { dependantsOf, depsOf } from './graph.ts';
import type { RunState } from './run.types.ts';

/** A twin item or record the run produced that is no longer current (superseded, or marked stale). */
export interface StaleEntry {
  node_id: string;
  ref: string | null;
  phase: string | null;
  reason: string;
}

/** A required deliverable no registered tool fully produces; `blocking` when nobody can record it and the phase enforces it. */
export interface CapabilityGap {
  phase: string;
  deliverable: string;
  capability: string;
  blocking: boolean;
}

/** Everything the lifecycle view is computed from (pure input). */
export interface LifecycleInput {
  state: RunState;
  requirements: RequirementResult[];
  stale: StaleEntry[];
  gaps: CapabilityGap[];
  limits: string[];
  /** False when the twin could not be read: nothing is verified, so a completed run is at best partial. */
  evidenceRead: boolean;
}

const EXECUTION: Record<string, LifecyclePhase['execution_status']> = {
  pending: 'PENDING',
  running: 'RUNNING',
  awaiting_gate: 'AWAITING_GATE',
  approved: 'COMPLETED',
  skipped: 'SKIPPED',
  failed: 'FAILED',
};
const RESOLVED = ['approved', 'skipped'];

/** The phase view (SPEC "Phase view"): execution status, eligibility, validity and objective status of each phase. */
export function phaseView(inp: LifecycleInput): LifecyclePhase[] {
  const s = inp.state;
  const def = s.flow.definition;
  const stalePhases = new Set(inp.stale.map((e) => e.phase).filter((p): p is string => !!p && !!s.phases[p]));
  const downstream = new Set([...stalePhases].flatMap((p) => dependantsOf(def, p)));
  const rejectedAt = s.status === 'rejected' ? s.decisions.at(-1)?.phase : undefined;
  return def.phases.map((p) => {
    const ps = s.phases[p.id];
    const notes: string[] = [];
    let execution = EXECUTION[ps.status] ?? 'PENDING';
    if (ps.failure) execution = 'FAILED';
    if (s.status === 'cancelled' && ['pending', 'running', 'awaiting_gate'].includes(ps.status))
      execution = 'CANCELLED';
    if (ps.failure) notes.push(`failed (${ps.failure.kind}): ${ps.failure.message}`);

    const gaps = inp.gaps.filter((g) => g.phase === p.id && g.blocking);
    const depsDone = depsOf(def, p).every((d) => RESOLVED.includes(s.phases[d]?.status ?? ''));
    let eligibility: LifecyclePhase['eligibility'] =
      ps.status === 'skipped'
        ? 'SKIPPED'
        : ps.status !== 'pending'
          ? 'ELIGIBLE'
          : gaps.length
            ? 'BLOCKED'
            : depsDone
              ? 'ELIGIBLE'
              : 'PENDING';
    if (eligibility === 'BLOCKED')
      notes.push(`blocked: no registered tool can record ${gaps.map((g) => g.deliverable).join(', ')}`);
    if (ps.status === 'skipped') notes.push(ps.skip_reason ?? 'skipped');

    const done = ['approved', 'awaiting_gate'].includes(ps.status);
    let validity: LifecyclePhase['validity'] = ps.status === 'skipped' ? 'SKIPPED' : !done ? 'PENDING' : 'VALID';
    if (done && stalePhases.has(p.id)) {
      validity = 'STALE';
      for (const e of inp.stale.filter((x) => x.phase === p.id)) notes.push(`stale: ${e.reason}`);
    } else if (done && downstream.has(p.id)) {
      validity = 'POTENTIALLY_INVALID';
      notes.push('downstream of a stale phase');
    }
    if (ps.status === 'skipped') eligibility = 'SKIPPED';

    let objective: LifecyclePhase['objective_status'] = 'PENDING';
    const verified = p.gate.enforce_constraints ? inp.requirements.filter((r) => r.mandatory) : [];
    if (ps.status === 'skipped') objective = 'SKIPPED';
    else if (execution === 'FAILED' || rejectedAt === p.id) objective = 'FAILED';
    else if (eligibility === 'BLOCKED') objective = 'BLOCKED';
    else if (ps.status === 'approved') {
      if (validity !== 'VALID') objective = 'STALE';
      else if (verified.some((r) => r.status === 'fail')) objective = 'FAILED';
      else if (verified.some((r) => r.status === 'no_data'))
        notes.push('requirements without current evidence: objective not shown met');
      else objective = 'COMPLETED';
    }
    for (const r of verified.filter((x) => x.status !== 'pass'))
      notes.push(`requirement ${r.id} ${r.metric}: ${r.status} (${r.note})`);
    return {
      id: p.id,
      title: p.title,
      execution_status: execution,
      eligibility,
      validity,
      objective_status: objective,
      notes,
    };
  });
}

/**
 * The completion verdict (SPEC "Completion verdict of a run"). Ended runs: cancelled is CANCELLED, failed or rejected is
 * FAILED. Open runs: BLOCKED when the open gate refuses approve or a pending phase has a blocking capability gap, else
 * IN_PROGRESS. Completed runs: PARTIALLY_COMPLETED when a mandatory requirement fails or has no current evidence, an
 * output is stale, or a phase objective is not met; COMPLETED_WITH_WARNINGS for non-blocking limits (a skipped phase,
 * no requirements recorded, an advisory requirement not passing); else COMPLETED_VERIFIED.
 */
export function completionVerdict(
  inp: LifecycleInput,
  phases: LifecyclePhase[],
): { verdict: CompletionVerdict; warnings: string[] } {
  const s = inp.state;
  const warnings: string[] = [];
  if (s.status === 'cancelled') return { verdict: 'CANCELLED', warnings };
  if (s.status === 'failed' || s.status === 'rejected') return { verdict: 'FAILED', warnings };
  if (s.status !== 'completed') {
    const blocked = (s.gate && !s.gate.ready) || phases.some((p) => p.eligibility === 'BLOCKED');
    return { verdict: blocked ? 'BLOCKED' : 'IN_PROGRESS', warnings };
  }
  const mandatory = inp.requirements.filter((r) => r.mandatory);
  const partial =
    mandatory.some((r) => r.status !== 'pass') ||
    inp.stale.length > 0 ||
    phases.some((p) => !['COMPLETED', 'SKIPPED'].includes(p.objective_status)) ||
    !inp.evidenceRead;
  for (const p of phases.filter((x) => x.execution_status === 'SKIPPED')) warnings.push(`phase ${p.id} was skipped`);
  if (!inp.requirements.length) warnings.push('no requirements were recorded: nothing was verified against a limit');
  for (const r of inp.requirements.filter((x) => !x.mandatory && x.status !== 'pass'))
    warnings.push(`advisory requirement ${r.id} ${r.metric}: ${r.status}`);
  if (partial) return { verdict: 'PARTIALLY_COMPLETED', warnings };
  return { verdict: warnings.length ? 'COMPLETED_WITH_WARNINGS' : 'COMPLETED_VERIFIED', warnings };
}

/** One sentence telling a person what to do next. */
export function nextStep(inp: LifecycleInput, verdict: CompletionVerdict): string {
  const s = inp.state;
  const failing = inp.requirements
    .filter((r) => r.mandatory && r.status !== 'pass')
    .map((r) => `${r.id} ${r.metric} (${r.status})`);
  const gateName = s.gate
    ? (s.flow.definition.phases.find((p) => p.id === s.gate!.phase)?.gate.name ?? s.gate.phase)
    : '';
  switch (verdict) {
    case 'CANCELLED':
      return `The run was cancelled${s.ended?.message ? ` (${s.ended.message})` : ''}; start a new run to continue the design.`;
    case 'FAILED':
      return `The run ended ${s.status}: ${s.ended?.message ?? 'no reason recorded'}; fix the cause and start a new run.`;
    case 'BLOCKED':
      if (s.gate && !s.gate.ready)
        return `The gate "${gateName}" of phase ${s.gate.phase} is not ready (${s.gate.findings.map((f) => f.message).join('; ')}); retry the phase or reject the run.`;
      return `Phase ${inp.gaps
        .filter((g) => g.blocking)
        .map((g) => `${g.phase} needs a tool that records ${g.deliverable}`)
        .join('; ')}: register that adapter or patch the flow.`;
    case 'IN_PROGRESS':
      if (s.gate)
        return `Decide the gate "${gateName}" of phase ${s.gate.phase}: approve, reject, retry or rework (POST /v1/runs/${s.id}/approval).`;
      return `Wait for phase ${
        Object.entries(s.phases)
          .filter(([, p]) => p.status === 'running')
          .map(([id]) => id)
          .join(', ') || 'work'
      } to finish; its gate opens next.`;
    case 'PARTIALLY_COMPLETED':
      if (!inp.evidenceRead)
        return `The twin could not be read (${inp.limits.join('; ')}); ask again once it is reachable.`;
      if (inp.stale.length)
        return `Outputs went stale (${inp.stale.map((e) => e.ref ?? e.node_id).join(', ')}); start a new run from the current twin to re-verify them.`;
      return `The intent is not satisfied: ${failing.join(', ') || 'a phase objective is not met'}; start a new run (or rework the design) to close it.`;
    case 'COMPLETED_WITH_WARNINGS':
      return 'The run passed with warnings; review them and record the missing requirements or waivers before release.';
    case 'COMPLETED_VERIFIED':
      return 'Nothing to do: every mandatory requirement passes with current evidence.';
  }
}

/** The lifecycle view of a run (pure): phase view, completion verdict, limits and the next step. */
export function lifecycleView(inp: LifecycleInput): LifecycleView {
  const s = inp.state;
  const phases = phaseView(inp);
  const { verdict, warnings } = completionVerdict(inp, phases);
  return {
    run_id: s.id,
    project_id: s.project_id,
    design_flow: s.flow.flow_id,
    version_id: s.flow.version_id,
    status: s.status,
    verdict,
    phases,
    requirements: inp.requirements,
    stale: inp.stale,
    gaps: inp.gaps,
    warnings,
    limits: inp.limits,
    nextStep: nextStep(inp, verdict),
  };
}
