import type { GateFinding } from '../../contracts/approvals.ts';
import type { RunState } from './run.types.ts';

/** Patch marker (STYLE R6): the stall check compares findings regardless of their order. Runs created before it compare in order. */
export const PATCH_FINDINGS_ORDER = 'findings-order-insensitive-v1';

/** Whether the run was created with a patch marker: behaviour changed for runs in flight branches on this, never on code age. */
export function hasPatch(s: Pick<RunState, 'patches'>, id: string): boolean {
  return s.patches.includes(id);
}

/** Identity of a set of findings (typed kinds, not wording only) the stall check compares; order-insensitive unless told otherwise. */
export function findingsKey(findings: GateFinding[], orderInsensitive = true): string {
  const keys = findings.map((f) => `${f.kind}|${f.message}`);
  return (orderInsensitive ? keys.sort() : keys).join('\n');
}
