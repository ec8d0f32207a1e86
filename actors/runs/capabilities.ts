import type { CapabilityLevel, CapabilityReport } from '../../contracts/design-flows.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';
import { phaseDriver, toolGaps, type ModelRoutes, type UnavailableTools } from './phase-readiness.ts';

const ENTITY = 'twin.record_engineering_entity';
const DOC = 'twin.record_document';

/**
 * Which tools make each deliverable type (reference `DELIVERABLE_TOOLS`): `record` writes it into the twin; `produce`
 * lists alternative chains of tools that author its content (every tool of one chain is needed). A deliverable with a
 * recorder but no complete producing chain can only be recorded from content made elsewhere: PARTIAL.
 */
export const DELIVERABLE_TOOLS: Record<string, { record: string; produce?: string[][] }> = {
  intent: { record: ENTITY },
  stakeholder_need: { record: ENTITY },
  objective: { record: ENTITY },
  design_decision: { record: 'twin.record_decision' },
  constraint_set: { record: 'twin.record_constraint_set' },
  prd: { record: DOC },
  test_result: { record: DOC },
  test_plan: { record: DOC },
  manufacturing_file: { record: DOC },
  firmware_source: { record: DOC },
  cad_model: {
    record: 'twin.commit_geometry',
    produce: [
      ['cadkernel.open_session', 'cadkernel.create_primitive', 'cadkernel.export_model'],
      ['cadscript.create_parametric'],
      ['cadkernel.create_parametric'],
    ],
  },
  simulation_result: {
    record: DOC,
    produce: [['twin.stage_work_product_file', 'cadkernel.generate_mesh', 'solver.run_fea']],
  },
  bom: { record: DOC, produce: [['eda.export_bom']] },
  schematic: { record: DOC, produce: [['eda.generate_schematic']] },
  pcb_layout: { record: DOC, produce: [['eda.auto_route']] },
  gerber: { record: DOC, produce: [['eda.export_gerber']] },
  pinmap: { record: DOC, produce: [['eda.get_pin_mapping']] },
};

/** One deliverable's capability from the set of tool ids that can run (own keys only: a patch names the type). */
export function deliverableCapability(type: string, tools: ReadonlySet<string>) {
  const spec = Object.hasOwn(DELIVERABLE_TOOLS, type) ? DELIVERABLE_TOOLS[type] : undefined;
  if (!spec) {
    return {
      type,
      capability: 'UNKNOWN' as CapabilityLevel,
      tools_available: [],
      tools_missing: [],
      note: `no tool is known to produce a ${type}`,
    };
  }
  const chains = spec.produce ?? [[]];
  const missing = (ch: string[]) => ch.filter((t) => !tools.has(t)).length;
  const best = chains.reduce((a, b) => (missing(b) < missing(a) ? b : a));
  const complete = missing(best) === 0;
  const wanted = [spec.record, ...best];
  const tools_available = wanted.filter((t) => tools.has(t));
  const tools_missing = wanted.filter((t) => !tools.has(t));
  if (!tools.has(spec.record)) {
    return {
      type,
      capability: 'UNAVAILABLE' as CapabilityLevel,
      tools_available,
      tools_missing,
      note: `${spec.record} is not registered, so no ${type} can be recorded`,
    };
  }
  if (complete) return { type, capability: 'FULL' as CapabilityLevel, tools_available, tools_missing: [], note: '' };
  return {
    type,
    capability: 'PARTIAL' as CapabilityLevel,
    tools_available,
    tools_missing,
    note: `a ${type} can be recorded, but no registered tools that can run author it (missing ${tools_missing.join(', ')})`,
  };
}

const worst = (a: CapabilityReport['status'], b: CapabilityReport['status']) =>
  a === 'BLOCKED' || b === 'BLOCKED'
    ? 'BLOCKED'
    : a === 'READY_WITH_WARNINGS' || b === 'READY_WITH_WARNINGS'
      ? 'READY_WITH_WARNINGS'
      : 'READY';

/** What the report is computed over, gathered by the runs actor (capability-inputs.ts). */
export interface CapabilityInputs {
  /** Registered tool ids (a profile's, when one is asked for); unreachable adapters contribute none. */
  toolIds: string[];
  unavailableAdapters: string[];
  /** Registered tools whose adapter says they cannot run (engine missing), with why. */
  unavailableTools: UnavailableTools;
  /** Phase ids of this flow with a deterministic handler, from the executor's own handler table. */
  handlers: ReadonlySet<string>;
  routes: ModelRoutes;
  /** Phases whose handler's engine actor cannot run (e.g. the firmware actor without gcc): phase id -> why. */
  engineGaps?: Readonly<Record<string, string>>;
  /** `SERVICE_PHASE_BRAIN` of the runs actor: `model` makes a phase with a handler model-driven when routed. */
  brain?: 'deterministic' | 'model';
}

/**
 * The capability report of a flow (pure). Per deliverable: FULL/PARTIAL/UNAVAILABLE/UNKNOWN over the tools that can
 * run (registered and not listed unavailable by their adapter). Per phase: what drives it (phaseDriver), `missing`
 * (handler, route, tools) and `runnable` when nothing is; a phase that cannot run now is BLOCKED, as is one whose
 * enforced deliverable nobody can record; PARTIAL and UNKNOWN deliverables are warnings.
 */
export function capabilityReport(def: FlowDef, inp: CapabilityInputs): CapabilityReport {
  const registered = new Set(inp.toolIds);
  const usable = new Set(inp.toolIds.filter((t) => !Object.hasOwn(inp.unavailableTools, t)));
  const unreachable = new Set(inp.unavailableAdapters);
  const warnings = inp.unavailableAdapters.map((a) => `adapter ${a} is not reachable: its tools are not counted`);
  const phases = def.phases.map((p) => {
    const deliverables = p.required_deliverables.map((t) => deliverableCapability(t, usable));
    const driver = phaseDriver(def.id, p, inp.handlers, inp.routes, inp.brain);
    const missing = [...driver.missing];
    if (driver.handler === 'deterministic' && inp.engineGaps && Object.hasOwn(inp.engineGaps, p.id))
      missing.push(inp.engineGaps[p.id]!);
    let status: CapabilityReport['status'] = 'READY';
    for (const d of deliverables) {
      if (d.capability === 'UNKNOWN') missing.push(d.note);
      const wanted = [...d.tools_available, ...d.tools_missing];
      missing.push(...toolGaps(d.type, wanted, registered, inp.unavailableTools, unreachable));
      if (d.capability === 'FULL') continue;
      const blocking = d.capability === 'UNAVAILABLE' && p.enforce_deliverables;
      status = worst(status, blocking ? 'BLOCKED' : 'READY_WITH_WARNINGS');
      warnings.push(`phase ${p.id}: ${d.type} is ${d.capability}${d.note ? ` (${d.note})` : ''}`);
    }
    const runnable = missing.length === 0;
    if (!runnable) {
      status = 'BLOCKED';
      warnings.push(`phase ${p.id} cannot run now: ${missing.join('; ')}`);
    }
    return { id: p.id, title: p.title, status, runnable, handler: driver.handler, missing, deliverables };
  });
  const status = phases.reduce<CapabilityReport['status']>((acc, p) => worst(acc, p.status), 'READY');
  return { status, phases, warnings, unavailable_adapters: inp.unavailableAdapters, tool_count: registered.size };
}
