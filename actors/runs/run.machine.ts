import type { GateFinding } from '../../contracts/approvals.ts';
import type { FrozenFlow } from '../../contracts/flow-defs.ts';
import { evaluateCondition, parseCondition } from './condition.ts';
import { depsOf, dependantsOf, reworkTargetsOf } from './graph.ts';
import { apply, type RunEvent } from './run.events.ts';
import { overridable, reworksAt } from './gate-rules.ts';
import { findingsKey, hasPatch, PATCH_FINDINGS_ORDER } from './run.markers.ts';
import { ended } from './run.resume.ts';
import type { Decided, Refusal, RunCommand, RunEffect, RunEnv } from './run.commands.ts';
import type { Decision, DecisionIdentity, Deliverable, FailureKind, RunLimits, RunState } from './run.types.ts';

export { findingsKey, hasPatch, PATCH_FINDINGS_ORDER } from './run.markers.ts';
export { resumeEffects } from './run.resume.ts';
export { allowedDecisions, overridable } from './gate-rules.ts';

export type { Decided, Refusal, RunCommand, RunEffect, RunEnv } from './run.commands.ts';

const TRANSIENT_RETRIES = 3;
const ENDS_RUN: FailureKind[] = ['environment', 'authorization', 'capability'];

/** Emits events one by one over a working state, so later decisions see earlier effects. */
class Builder {
  events: RunEvent[] = [];
  effects: RunEffect[] = [];
  state: RunState;
  constructor(state: RunState) {
    this.state = state;
  }
  emit(e: RunEvent) {
    this.events.push(e);
    this.state = apply(this.state, e);
  }
  done(refusal?: Refusal): Decided {
    return { events: this.events, effects: this.effects, ...(refusal ? { refusal } : {}) };
  }
}

/** Starts every pending phase whose dependencies are resolved (approved or skipped): one wave; skips false conditions. */
function advance(b: Builder, env: RunEnv): void {
  const def = b.state.flow.definition;
  for (let changed = true; changed;) {
    changed = false;
    for (const p of def.phases) {
      const ps = b.state.phases[p.id];
      if (ps.status !== 'pending') continue;
      const resolved = depsOf(def, p).every((d) => ['approved', 'skipped'].includes(b.state.phases[d].status));
      if (!resolved) continue;
      if (p.condition && !evaluateCondition(parseCondition(p.condition), b.state.flow.facts)) {
        b.emit({ type: 'PhaseSkipped', phase: p.id, reason: `condition false: ${p.condition}`, at: env.now });
        changed = true;
        continue;
      }
      const notes = ps.notes;
      b.emit({ type: 'PhaseStarted', phase: p.id, attempt: ps.attempt + 1, at: env.now });
      b.effects.push({ type: 'runPhase', phase: p.id, attempt: ps.attempt + 1, notes });
    }
  }
  if (def.phases.every((p) => ['approved', 'skipped'].includes(b.state.phases[p.id].status))) {
    b.emit({ type: 'RunEnded', status: 'completed', message: 'every phase approved or skipped', at: env.now });
    b.effects.push({ type: 'ended', status: 'completed' });
    return;
  }
  if (!b.state.gate && b.state.gate_queue.length) {
    const head = b.state.gate_queue[0];
    b.effects.push({ type: 'evaluateGate', phase: head, attempt: b.state.phases[head].attempt });
  }
}

const gateIdOf = (s: RunState, phase: string) => `${s.id}:${phase}:${s.phases[phase].attempt}`;

/** The decision rules of a run (pure): `(state, command) -> events + effects | refusal`. */
export function decide(s: RunState, c: RunCommand, env: RunEnv): Decided {
  const b = new Builder(s);
  if (c.type === 'create') {
    if (s.seq > 0) return b.done();
    b.emit({
      type: 'RunCreated',
      run_id: c.run_id,
      project_id: c.project_id,
      flow: c.flow,
      patches: c.patches,
      at: env.now,
    });
    advance(b, env);
    return b.done();
  }
  if (c.type === 'decide' && s.decisions.some((d) => d.idem === c.idem)) return b.done();
  if (ended(s)) return b.done({ code: 'CONFLICT', message: `run ${s.id} has ended (${s.status})` });

  switch (c.type) {
    case 'phaseResult': {
      const ps = s.phases[c.phase];
      if (!ps || ps.status !== 'running' || ps.attempt !== c.attempt) return b.done(); // stale or duplicate result
      if (!c.ok && c.kind === 'transient' && c.attempt < TRANSIENT_RETRIES) {
        b.emit({ type: 'PhaseStarted', phase: c.phase, attempt: c.attempt + 1, at: env.now });
        b.effects.push({
          type: 'runPhase',
          phase: c.phase,
          attempt: c.attempt + 1,
          notes: [`transient failure, retried as is: ${c.message}`],
        });
        return b.done();
      }
      if (!c.ok && ENDS_RUN.includes(c.kind)) {
        b.emit({
          type: 'PhaseFailed',
          phase: c.phase,
          attempt: c.attempt,
          kind: c.kind,
          message: c.message,
          at: env.now,
        });
        b.emit({
          type: 'RunEnded',
          status: 'failed',
          kind: c.kind,
          message: `phase ${c.phase}: ${c.message}`,
          at: env.now,
        });
        b.effects.push(
          { type: 'closeDrafts', status: 'abandoned', reason: `run failed (${c.kind}): ${c.message}` },
          { type: 'ended', status: 'failed' },
        );
        return b.done();
      }
      b.emit(
        c.ok
          ? {
              type: 'PhaseSucceeded',
              phase: c.phase,
              attempt: c.attempt,
              summary: c.summary,
              deliverables: c.deliverables,
              ...(c.findings?.length ? { findings: c.findings } : {}),
              at: env.now,
            }
          : { type: 'PhaseFailed', phase: c.phase, attempt: c.attempt, kind: c.kind, message: c.message, at: env.now },
      );
      if (!b.state.gate && b.state.gate_queue[0] === c.phase)
        b.effects.push({ type: 'evaluateGate', phase: c.phase, attempt: c.attempt });
      return b.done();
    }

    case 'gateEvaluated': {
      const ps = s.phases[c.phase];
      if (s.gate || s.gate_queue[0] !== c.phase || ps.attempt !== c.attempt) return b.done(); // stale evaluation
      const failure = ps.failure
        ? [
            {
              kind: 'other' as const,
              severity: 'error',
              message: `phase failed (${ps.failure.kind}): ${ps.failure.message}`,
            },
          ]
        : [];
      // The phase's own findings (a hand calculation over its allowable) are the gate's too; an error one blocks.
      const own = ps.findings ?? [];
      const findings = [...failure, ...own, ...c.findings];
      const ready = c.ready && failure.length === 0 && !own.some((f) => f.severity === 'error');
      const key = findingsKey(findings, hasPatch(s, PATCH_FINDINGS_ORDER));
      const prev = s.not_ready[c.phase];
      const streak = ready ? 0 : prev && prev.key === key ? prev.streak + 1 : 1;
      const gate_id = gateIdOf(s, c.phase);
      b.emit({
        type: 'GateOpened',
        phase: c.phase,
        attempt: c.attempt,
        gate_id,
        findings,
        ready,
        stalled: streak >= 2,
        streak,
        key,
        at: env.now,
      });
      if (!ready && streak >= env.limits.stallStop) {
        const message = `gate of ${c.phase} stalled: the same not-ready findings ${streak} times in a row`;
        b.emit({ type: 'RunEnded', status: 'failed', kind: 'design', message, at: env.now });
        b.effects.push(
          { type: 'closeDrafts', status: 'abandoned', reason: message },
          { type: 'ended', status: 'failed' },
        );
        return b.done();
      }
      b.effects.push({ type: 'gateOpened', phase: c.phase, gate_id, ready });
      return b.done();
    }

    case 'decide':
      return decideGate(b, s, c, env);

    case 'commitResult': {
      if (s.decisions.some((d) => d.idem === c.idem)) return b.done();
      if (!s.gate || s.gate.gate_id !== c.gate_id)
        return b.done({ code: 'CONFLICT', message: 'the gate closed while its drafts were committed' });
      if (!c.ok) {
        b.emit({ type: 'CommitConflicted', phase: s.gate.phase, gate_id: c.gate_id, message: c.message, at: env.now });
        return b.done({ code: 'PATCH_CONFLICT', message: c.message });
      }
      b.emit({
        type: 'GateDecided',
        phase: s.gate.phase,
        gate_id: c.gate_id,
        decision: 'approve',
        reason: c.reason,
        to_phase: '',
        idem: c.idem,
        ...c.identity,
        ...(c.override_reason ? { override_reason: c.override_reason } : {}),
        at: env.now,
      });
      advance(b, env);
      return b.done();
    }

    case 'cancel':
      b.emit({ type: 'RunEnded', status: 'cancelled', message: c.reason || 'cancelled', at: env.now });
      b.effects.push(
        { type: 'closeDrafts', status: 'abandoned', reason: `run cancelled: ${c.reason}` },
        { type: 'ended', status: 'cancelled' },
      );
      return b.done();

    case 'patchFlow':
      return decidePatch(b, s, c, env);
  }
}

/** A person's gate decision: approve (commit first), reject, retry, rework, with the spec's caps and reason rules. */
function decideGate(b: Builder, s: RunState, c: Extract<RunCommand, { type: 'decide' }>, env: RunEnv): Decided {
  if (s.decisions.some((d) => d.idem === c.idem)) return b.done(); // the same command again: applied once already
  const gate = s.gate;
  if (!gate) return b.done({ code: 'CONFLICT', message: `run ${s.id} has no open gate` });
  if (c.gate_id && c.gate_id !== gate.gate_id)
    return b.done({
      code: 'CONFLICT',
      message: `gate ${c.gate_id} of run ${s.id} is no longer open (already decided); the open gate is ${gate.phase} attempt ${gate.attempt}. Nothing was recorded`,
    });
  const def = s.flow.definition;
  const phaseDef = def.phases.find((p) => p.id === gate.phase)!;
  const needsReason = c.decision !== 'approve';
  if (needsReason && !c.reason.trim())
    return b.done({ code: 'VALIDATION_FAILED', message: `a ${c.decision} decision needs a reason` });
  const base = {
    phase: gate.phase,
    gate_id: gate.gate_id,
    decision: c.decision,
    reason: c.reason,
    to_phase: c.to_phase,
    idem: c.idem,
    ...c.identity,
    at: env.now,
  };

  const override = c.override_reason?.trim() ?? '';
  if (c.override_reason !== undefined && c.decision !== 'approve')
    return b.done({ code: 'VALIDATION_FAILED', message: 'override_reason goes with approve only' });
  if (c.decision === 'approve') {
    const overridden = !gate.ready && override !== '' && overridable(gate.findings);
    if (!gate.ready && !overridden)
      return b.done({
        code: 'CONFLICT',
        message: `gate ${phaseDef.gate.name} is not ready: ${gate.findings.map((f) => f.message).join('; ')}${overridable(gate.findings) ? ' (approve with an override_reason to go on over it)' : ''}`,
      });
    if (gate.ready && c.override_reason !== undefined)
      return b.done({ code: 'VALIDATION_FAILED', message: `gate ${phaseDef.gate.name} is ready: nothing to override` });
    b.effects.push({
      type: 'commitDrafts',
      phase: gate.phase,
      gate_id: gate.gate_id,
      gate_name: phaseDef.gate.name,
      approver: c.identity.approver,
      reason: c.reason,
      idem: c.idem,
      identity: c.identity,
      ...(overridden ? { override_reason: override } : {}),
    });
    return b.done();
  }
  if (c.decision === 'reject') {
    b.emit({ type: 'GateDecided', ...base });
    b.emit({
      type: 'RunEnded',
      status: 'rejected',
      message: `rejected at ${phaseDef.gate.name}: ${c.reason}`,
      at: env.now,
    });
    b.effects.push(
      { type: 'closeDrafts', status: 'rejected', reason: c.reason },
      { type: 'ended', status: 'rejected' },
    );
    return b.done();
  }
  if (c.decision === 'retry') {
    if (s.phases[gate.phase].retries >= env.limits.maxRetries)
      return b.done({ code: 'CONFLICT', message: `retries of ${gate.phase} are used up (${env.limits.maxRetries})` });
    b.emit({ type: 'GateDecided', ...base });
    b.effects.push({ type: 'closeDrafts', status: 'abandoned', reason: `retry of ${gate.phase}: ${c.reason}` });
    advance(b, env);
    return b.done();
  }
  const targets = reworkTargetsOf(def, gate.phase);
  if (!targets.includes(c.to_phase)) {
    return b.done({
      code: 'VALIDATION_FAILED',
      message: `to_phase ${JSON.stringify(c.to_phase)} is not a rework target of ${gate.phase}; targets: ${targets.join(', ') || 'none'}`,
    });
  }
  if (reworksAt(s, gate.phase) >= env.limits.maxReworks)
    return b.done({ code: 'CONFLICT', message: `reworks of ${gate.phase} are used up (${env.limits.maxReworks})` });
  b.emit({ type: 'GateDecided', ...base });
  const reset = [c.to_phase, ...dependantsOf(def, c.to_phase)];
  b.emit({
    type: 'PhasesReset',
    phases: reset,
    note: `REWORK (cycle ${s.reworks + 1}) from ${gate.phase}: ${c.reason}`,
    at: env.now,
  });
  b.effects.push({ type: 'closeDrafts', status: 'abandoned', reason: `rework to ${c.to_phase}: ${c.reason}` });
  advance(b, env);
  return b.done();
}

/** An approved flow patch: refused as stale when the flow moved on or the run moved past a patched phase. */
function decidePatch(b: Builder, s: RunState, c: Extract<RunCommand, { type: 'patchFlow' }>, env: RunEnv): Decided {
  if (s.flow.content_hash !== c.base_hash)
    return b.done({
      code: 'CONFLICT',
      message: `stale: the patch was written against ${c.base_hash.slice(0, 12)}, the run's flow is now ${s.flow.content_hash.slice(0, 12)}`,
    });
  const past = c.affected.filter((id) => ['approved', 'skipped'].includes(s.phases[id]?.status ?? ''));
  if (past.length) return b.done({ code: 'CONFLICT', message: `stale: the run moved past ${past.join(', ')}` });
  const rerun = c.affected.filter(
    (id) =>
      c.flow.definition.phases.some((p) => p.id === id) &&
      ['running', 'awaiting_gate'].includes(s.phases[id]?.status ?? ''),
  );
  b.emit({ type: 'FlowPatched', flow: c.flow, rerun, note: c.note, at: env.now });
  if (rerun.length)
    b.effects.push({ type: 'closeDrafts', status: 'abandoned', reason: `${c.note}: ${rerun.join(', ')} re-run` });
  advance(b, env);
  return b.done();
}
