import type { DraftScope } from '../../contracts/actions/twin.actions.ts';
import { dependantsOf } from './graph.ts';
import type { RunEvent } from './run.events.ts';
import type { RunState } from './run.types.ts';

/**
 * Which drafts a command's `closeDrafts` effect takes (decision 0142), from the run before the command and the events
 * it stored: the drafts of the phases a retry, a rework or a flow patch starts over, written by their attempts up to
 * the one running then (a new attempt's drafts are never closed with the old ones, whoever closes late). Undefined:
 * every draft of the run (it ended, or nothing names the phases).
 */
export function closeScopeOf(prev: RunState, events: RunEvent[]): DraftScope[] | undefined {
  if (events.some((e) => e.type === 'RunEnded')) return undefined;
  const phases = new Set<string>();
  for (const e of events) {
    if (e.type === 'GateDecided' && e.decision === 'retry') phases.add(e.phase);
    if (e.type === 'PhasesReset') for (const p of e.phases) phases.add(p);
    if (e.type === 'FlowPatched') for (const p of e.rerun) phases.add(p);
  }
  if (!phases.size) return undefined;
  return [...phases].map((phase) => ({ phase, before: (prev.phases[phase]?.attempt ?? 0) + 1 }));
}

/**
 * The same for a new owner closing again after a retry or rework its predecessor may not have closed (run.resume.ts):
 * each phase it started over, up to the attempt before the one started since the decision (if any was).
 */
export function resumeCloseScope(s: RunState): DraftScope[] | undefined {
  const last = s.decisions.at(-1);
  if (!last || (last.decision !== 'retry' && last.decision !== 'rework')) return undefined;
  const phases =
    last.decision === 'retry' ? [last.phase] : [last.to_phase, ...dependantsOf(s.flow.definition, last.to_phase)];
  return phases.map((phase) => {
    const ps = s.phases[phase];
    const restarted = ps?.started_at !== undefined && ps.started_at >= last.decided_at;
    return { phase, before: (ps?.attempt ?? 0) + (restarted ? 0 : 1) };
  });
}
