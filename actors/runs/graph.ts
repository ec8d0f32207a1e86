import type { FlowDef, PhaseDef } from '../../contracts/flow-defs.ts';

/** A phase's dependencies: `depends_on` when set (empty = a root), else the previous phase (SPEC graph fields). */
export function depsOf(def: FlowDef, phase: PhaseDef): string[] {
  if (phase.depends_on) return phase.depends_on;
  const i = def.phases.findIndex((p) => p.id === phase.id);
  return i > 0 ? [def.phases[i - 1].id] : [];
}

/** Every phase that depends on `id`, directly or not, in flow order. */
export function dependantsOf(def: FlowDef, id: string): string[] {
  const out = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of def.phases) {
      if (out.has(p.id)) continue;
      if (depsOf(def, p).some((d) => d === id || out.has(d))) {
        out.add(p.id);
        grew = true;
      }
    }
  }
  return def.phases.map((p) => p.id).filter((x) => out.has(x));
}

/** Rework targets of a phase: its earlier phases it depends on, directly or not, in flow order (SPEC approval item). */
export function reworkTargetsOf(def: FlowDef, id: string): string[] {
  const byId = new Map(def.phases.map((p) => [p.id, p]));
  const out = new Set<string>();
  const visit = (pid: string) => {
    for (const d of depsOf(def, byId.get(pid)!)) {
      if (!out.has(d)) {
        out.add(d);
        visit(d);
      }
    }
  };
  visit(id);
  return def.phases.map((p) => p.id).filter((x) => out.has(x));
}
