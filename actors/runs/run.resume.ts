import { resumeCloseScope } from './draft-scope.ts';
import type { RunEffect } from './run.commands.ts';
import type { RunState } from './run.types.ts';

/** A run that ended takes no further decision and resumes nothing. */
export const ended = (s: RunState) => ['completed', 'failed', 'rejected', 'cancelled'].includes(s.status);

/**
 * What a new owner must (re)start when it loads a run (after a takeover, or after a node dropped it): every phase that
 * was running (its result was never stored), the queued gate's evaluation, and the open gate's notification (the old
 * owner may have died between the append and the broadcast). Drafts are closed first when a retry or rework was the
 * last decision and nothing finished since: the old owner may have died before closing them (closing is idempotent).
 */
export function resumeEffects(s: RunState): RunEffect[] {
  if (ended(s)) return [];
  const fx: RunEffect[] = [];
  const last = s.decisions.at(-1);
  if (
    last &&
    (last.decision === 'retry' || last.decision === 'rework') &&
    !Object.values(s.phases).some((p) => p.finished_at && p.finished_at >= last.decided_at)
  ) {
    const drafts = resumeCloseScope(s);
    fx.push({
      type: 'closeDrafts',
      status: 'abandoned',
      reason: `${last.decision} of ${last.phase} resumed on a new owner: ${last.reason}`,
      ...(drafts ? { drafts } : {}),
    });
  }
  for (const [phase, ps] of Object.entries(s.phases))
    if (ps.status === 'running') fx.push({ type: 'runPhase', phase, attempt: ps.attempt, notes: ps.notes });
  if (s.gate) fx.push({ type: 'gateOpened', phase: s.gate.phase, gate_id: s.gate.gate_id, ready: s.gate.ready });
  else if (s.gate_queue.length)
    fx.push({ type: 'evaluateGate', phase: s.gate_queue[0], attempt: s.phases[s.gate_queue[0]].attempt });
  return fx;
}

/**
 * What a new owner of an ENDED run closes: every draft it left (idempotent). The former owner's close of them is fenced
 * once another node claimed the run, and that node loaded it, so the close that ending asked for always happens.
 */
export function endedCloseEffects(s: RunState): RunEffect[] {
  if (!ended(s)) return [];
  const status = s.status === 'rejected' ? 'rejected' : 'abandoned';
  return [{ type: 'closeDrafts', status, reason: `run ${s.status}: ${s.ended?.message ?? s.status}` }];
}
