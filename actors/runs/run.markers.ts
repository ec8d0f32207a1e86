import type { GateFinding } from '../../contracts/approvals.ts';
import type { RunState } from './run.types.ts';

/** Patch marker (STYLE R6): the stall check compares findings regardless of their order. Runs created before it compare in order. */
export const PATCH_FINDINGS_ORDER = 'findings-order-insensitive-v1';

/** Whether the run was created with a patch marker: behaviour changed for runs in flight branches on this, never on code age. */
export function hasPatch(s: Pick<RunState, 'patches'>, id: string): boolean {
  return s.patches.includes(id);
}

/**
 * Identity of a set of findings (typed kinds, not wording only) the stall check compares; order-insensitive unless
 * told otherwise. The gate_check model's findings (`source: 'model'`) are left out: their wording varies from one
 * call to the next and they never block, so they must not hide a gate that makes no progress. Recorded runs have none,
 * so their keys are unchanged (no patch needed).
 */
export function findingsKey(findings: GateFinding[], orderInsensitive = true): string {
  const keys = findings.filter((f) => f.source !== 'model').map((f) => `${f.kind}|${f.message}`);
  return (orderInsensitive ? keys.sort() : keys).join('\n');
}
