import type { PreparedDeck } from '../../../workers/simfield/deck.ts';
import type { FrdSummary } from '../../../workers/simfield/field-task.ts';
import type { CcxRun } from './ccx.ts';
import type { SolveSpec } from './solve.types.ts';

type Vec3 = [number, number, number];
const r = (x: number, d = 6) => Number(x.toPrecision(d));
const rv = (v: Vec3 | undefined) => v?.map((x) => r(x)) as Vec3 | undefined;

/**
 * The result of a solve (SPEC tool catalogue: max_von_mises by body, solver_time, mesh_elements, output_files, field),
 * with the numbers an engineer checks: peaks and where they are, the load set's mean displacement (the tip deflection
 * of a cantilever), reaction against applied load, frequencies, temperatures; warnings and the solver's own warnings.
 * Every number comes from the solved `.frd`/`.dat`, never from the simplified field.
 */
export function solveSummary(a: {
  spec: SolveSpec;
  deck: PreparedDeck;
  summary: FrdSummary;
  run: CcxRun;
  reaction: Vec3 | null;
  outputs: string[];
  field: Record<string, unknown>;
}) {
  const { spec, deck, summary: s, run } = a;
  const warnings = [...deck.warnings];
  const common = {
    analysis_type: spec.analysis,
    load_case: spec.loadCase,
    material: spec.material,
    solver: 'CalculiX ccx',
    solver_time: r(run.seconds, 4),
    mesh_elements: deck.elements,
    mesh_nodes: deck.nodes,
    meshStats: {
      nodes: deck.nodes,
      elements: deck.elements,
      element_types: deck.element_types,
      stripped_elements: deck.stripped,
    },
    node_sets: deck.sets,
    output_files: a.outputs,
    result_file: a.outputs[1],
  };
  const log = { solver_warnings: run.warnings, warnings };
  if (spec.analysis === 'thermal') {
    const t = s.temperature!;
    const source = spec.loadSet ? s.probes[spec.loadSet]?.mean_temperature : undefined;
    return {
      ...common,
      max_von_mises: {},
      max_temperature_c: r(t.max),
      max_temperature_position_mm: rv(t.peak.position),
      min_temperature_c: r(t.min),
      heat_source_mean_temperature_c: source === undefined ? null : r(source),
      sink_temp_c: spec.sinkTempC,
      power_dissipation_w: spec.powerW,
      heat_input: deck.heat ?? null,
      ...log,
      field: a.field,
    };
  }
  if (spec.analysis === 'modal') {
    const modes = (s.modes ?? []).map((m) => ({ mode: m.mode, frequency_hz: r(m.frequency_hz) }));
    return {
      ...common,
      max_von_mises: {},
      num_modes: spec.numModes,
      frequencies_hz: modes.map((m) => m.frequency_hz),
      modes,
      first_frequency_hz: modes[0]?.frequency_hz ?? null,
      mode_shape_note: 'mode shapes are mass-normalized: their size is not a physical displacement',
      ...log,
      field: a.field,
    };
  }
  const vm = s.von_mises;
  const applied = spec.forceN ?? [0, 0, 0];
  if (a.reaction) {
    const residual = Math.hypot(...a.reaction.map((x, k) => x + applied[k]));
    const load = Math.hypot(...applied);
    if (load > 0 && residual > 0.02 * load)
      warnings.push(
        `the reaction on ${spec.fixedSet} (${a.reaction.map((x) => r(x, 4)).join(', ')} N) does not balance the applied load (${applied.join(', ')} N)`,
      );
  }
  const mean = spec.loadSet ? s.probes[spec.loadSet]?.mean_displacement : undefined;
  return {
    ...common,
    max_von_mises: Object.fromEntries(Object.entries(vm?.by_body ?? {}).map(([k, v]) => [k, r(v)])),
    max_von_mises_mpa: vm ? r(vm.max) : null,
    max_von_mises_position_mm: rv(vm?.peak.position) ?? null,
    min_von_mises_mpa: vm ? r(vm.min) : null,
    max_displacement_mm: s.displacement ? r(s.displacement.max) : null,
    max_displacement_position_mm: rv(s.displacement?.peak.position) ?? null,
    load_set_mean_displacement_mm: rv(mean) ?? null,
    applied_force_n: applied,
    force_per_node_n: rv(applied.map((f) => f / Math.max(1, deck.loadNodeIds.length)) as Vec3),
    reaction_force_n: a.reaction ? rv(a.reaction) : null,
    ...log,
    field: a.field,
  };
}
