import { call, type Caller } from '../../brokers/actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import type { GateFinding } from '../../contracts/approvals.ts';

export interface GateCheckInput {
  run_id: string;
  project_id: string | null;
  phase: string;
  started_at: string | null;
  required_deliverables: string[];
  enforce_deliverables: boolean;
}

/**
 * Required deliverables: a work product of each required type recorded for the project since the phase started,
 * visible to the run (its own drafts and records, or committed revisions), as the twin answers `twin.deliverablesSince`.
 * A cad_model counts only when its file is stored. Missing ones are `missing_deliverable` findings; they block only
 * when the phase enforces deliverables.
 */
export async function deliverableFindings(via: Caller, p: GateCheckInput): Promise<GateFinding[]> {
  if (!p.required_deliverables.length) return [];
  const { present } = await call(via, TwinActions.deliverablesSince, {
    project_id: p.project_id,
    run_id: p.run_id,
    node_types: p.required_deliverables,
    since: p.started_at,
  });
  const have = new Set(present);
  return p.required_deliverables
    .filter((t) => !have.has(t))
    .map((t) => ({
      kind: 'missing_deliverable' as const,
      severity: p.enforce_deliverables ? 'error' : 'warning',
      message: `no ${t} was recorded in phase ${p.phase}${t === 'cad_model' ? ' (a cad_model counts only when its file is stored)' : ''}`,
    }));
}
