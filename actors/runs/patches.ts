import type { FlowOperation } from '../../contracts/design-flows.ts';
import type { FlowDef, PhaseDef } from '../../contracts/flow-defs.ts';
import { canonicalJson, validateFlow } from './flows/index.ts';
import { depsOf } from './graph.ts';
import type { RunState } from './run.types.ts';

/** A patch that cannot be built (unknown phase, duplicate id, cycle, empty flow): the caller's input is wrong. */
export class PatchError extends Error {
  override name = 'PatchError';
  readonly details: Record<string, unknown>;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
  }
}

const GRAPH_FIELDS = ['depends_on', 'condition', 'outcome', 'model'] as const;

/** Applies one modify_phase change set: a graph field set to null is removed (unset fields stay out of the hash). */
function modified(p: PhaseDef, changes: Extract<FlowOperation, { op: 'modify_phase' }>['changes']): PhaseDef {
  const next: Record<string, unknown> = { ...p };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) continue;
    if (v === null && (GRAPH_FIELDS as readonly string[]).includes(k)) delete next[k];
    else next[k] = v;
  }
  return next as PhaseDef;
}

/** Refuses dependency cycles (the engine supports only the ALL join over a DAG). */
function assertAcyclic(def: FlowDef): void {
  const byId = new Map(def.phases.map((p) => [p.id, p]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting')
      throw new PatchError(`the patched flow has a dependency cycle: ${[...path, id].join(' -> ')}`, {
        cycle: [...path, id],
      });
    state.set(id, 'visiting');
    const p = byId.get(id);
    if (p) for (const d of depsOf(def, p)) visit(d, [...path, id]);
    state.set(id, 'done');
  };
  for (const p of def.phases) visit(p.id, []);
}

/**
 * Applies the closed operation set to a flow (pure): add_phase (after a phase, default at the end), remove_phase,
 * modify_phase. The result is validated like any flow: a condition that does not parse throws a ConditionError naming
 * the phase and position; unknown ids, duplicates, dangling dependencies and cycles throw a PatchError.
 */
export function applyOperations(def: FlowDef, ops: FlowOperation[]): FlowDef {
  let phases = [...def.phases];
  const index = (id: string, what: string) => {
    const i = phases.findIndex((p) => p.id === id);
    if (i < 0)
      throw new PatchError(`${what}: no phase ${id} in the flow; phases: ${phases.map((p) => p.id).join(', ')}`, {
        phase_id: id,
      });
    return i;
  };
  ops.forEach((op, n) => {
    const where = `operation ${n + 1} (${op.op})`;
    if (op.op === 'add_phase') {
      if (phases.some((p) => p.id === op.phase.id))
        throw new PatchError(`${where}: phase ${op.phase.id} already exists`, { phase_id: op.phase.id });
      const at = op.after ? index(op.after, where) + 1 : phases.length;
      phases.splice(at, 0, op.phase as PhaseDef);
    } else if (op.op === 'remove_phase') {
      phases.splice(index(op.phase_id, where), 1);
    } else {
      const i = index(op.phase_id, where);
      phases[i] = modified(phases[i], op.changes);
    }
  });
  if (!phases.length) throw new PatchError('the patched flow has no phases left');
  const next = validateFlow({ ...def, phases });
  assertAcyclic(next);
  return next;
}

/**
 * Phases a patch touches: added, removed, or whose definition or effective dependencies changed (so an inserted
 * phase also touches the phase that now waits for it).
 */
export function affectedPhases(before: FlowDef, after: FlowDef): string[] {
  const old = new Map(before.phases.map((p) => [p.id, p]));
  const out: string[] = [];
  for (const p of after.phases) {
    const o = old.get(p.id);
    if (!o || canonicalJson(o) !== canonicalJson(p) || depsOf(before, o).join() !== depsOf(after, p).join())
      out.push(p.id);
  }
  for (const p of before.phases) if (!after.phases.some((x) => x.id === p.id)) out.push(p.id);
  return out;
}

/** Affected phases the run has already moved past (approved or skipped): a patch touching them is stale. */
export function movedPast(s: RunState, affected: string[]): string[] {
  return affected.filter((id) => ['approved', 'skipped'].includes(s.phases[id]?.status ?? ''));
}
