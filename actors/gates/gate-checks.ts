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
 * when the phase enforces deliverables. A deliverable with a companion (COMPANIONS) recorded without it is a
 * `missing_deliverable` warning naming what to attach: it never blocks, and never counts as the companion.
 */
export async function deliverableFindings(via: Caller, p: GateCheckInput): Promise<GateFinding[]> {
  if (!p.required_deliverables.length) return [];
  const companions = Object.entries(COMPANIONS).flatMap(([t, c]) => [t, c.type]);
  const { present } = await call(via, TwinActions.deliverablesSince, {
    project_id: p.project_id,
    run_id: p.run_id,
    node_types: [...new Set([...p.required_deliverables, ...companions])],
    since: p.started_at,
  });
  const have = new Set(present);
  const missing = p.required_deliverables
    .filter((t) => !have.has(t))
    .map((t) => ({
      kind: 'missing_deliverable' as const,
      severity: p.enforce_deliverables ? 'error' : 'warning',
      message: `no ${t} was recorded in phase ${p.phase}${t === 'cad_model' ? ' (a cad_model counts only when its file is stored)' : ''}`,
    }));
  const unpaired = Object.entries(COMPANIONS)
    .filter(([t, c]) => have.has(t) && !have.has(c.type))
    .map(([t, c]) => ({
      kind: 'missing_deliverable' as const,
      severity: 'warning',
      message: `a ${t} was recorded in phase ${p.phase} but no ${c.type}: ${c.attach}`,
    }));
  return [...missing, ...unpaired];
}

/**
 * Deliverables that ask for a companion recorded in the same phase: a schematic is checked against the board it is
 * laid out on (DRC). Without one the gate says what to attach; nothing claims a layout that was not checked.
 */
export const COMPANIONS: Record<string, { type: string; attach: string }> = {
  schematic: {
    type: 'pcb_layout',
    attach:
      'attach the board as a pcb_layout document of the project (twin.record_document with properties {board_path: "<workspace path>.kicad_pcb"}) and retry the phase to check it with eda.run_drc',
  },
};
