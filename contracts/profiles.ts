/**
 * Tool profiles of the service's tool catalogue (tool-catalogue.ts): `base` is in every profile; each profile is 20 to
 * 40 tools.
 */
export const BASE_PROFILE = [
  'project.get',
  'project.list',
  'session.start',
  'session.log_event',
  'session.complete',
  'twin.get_node',
  'twin.item_history',
  'twin.record_decision',
  'knowledge.search',
  'tools.search',
  'flow.status',
  'flow.lifecycle',
] as const;

const CADSCRIPT = [
  'create_parametric',
  'boolean_operation',
  'get_properties',
  'export_geometry',
  'execute_script',
  'create_assembly',
  'generate_enclosure',
].map((n) => `cadscript.${n}`);
const CADKERNEL_FILE = [
  'create_parametric',
  'boolean_operation',
  'get_properties',
  'export_geometry',
  'describe_step_file',
  'generate_mesh',
].map((n) => `cadkernel.${n}`);
const CADKERNEL_SESSION = [
  'open_session',
  'close_session',
  'describe_session',
  'create_primitive',
  'create_body',
  'create_sketch',
  'pad_sketch',
  'pocket_sketch',
  'revolve_sketch',
  'loft_sketches',
  'sweep_sketch',
  'fillet_edges',
  'chamfer_edges',
  'shell_solid',
  'linear_pattern',
  'polar_pattern',
  'mirror_feature',
  'boolean',
  'transform_object',
  'measure',
  'describe_model',
  'execute_code',
  'import_step',
  'export_model',
  'create_assembly',
  'add_assembly_joint',
  'list_joints',
].map((n) => `cadkernel.${n}`);
const SOLVER = [
  'run_fea',
  'run_thermal',
  'validate_mesh',
  'extract_results',
  'check_mesh_convergence',
  'cross_check_cantilever_beam',
  'cross_check_cantilever_frequency',
  'cross_check_thermal_steady_state',
  'compute_joint_loads',
].map((n) => `solver.${n}`);
const EDA = [
  'run_erc',
  'run_drc',
  'export_bom',
  'export_gerber',
  'export_netlist',
  'get_pin_mapping',
  'generate_schematic',
  'auto_route',
].map((n) => `eda.${n}`);

const EXTRA: Record<string, readonly string[]> = {
  core: [
    'project.create',
    'project.update',
    'twin.record_document',
    'twin.record_constraint_set',
    'twin.record_engineering_entity',
    'twin.propose_change',
    'twin.query_cypher',
    'knowledge.ingest',
    'memory.retrieve_similar_experience',
    'memory.list_insights',
    'flow.list',
    'flow.propose',
    'flow.start_run',
    'flow.compile_intent',
    'flow.capabilities',
    'flow.verify_completion',
    'flow.patch',
    'flow.await_gate',
    'web.search',
    'web.fetch',
  ],
  mechanical: [...CADSCRIPT, ...CADKERNEL_FILE, 'twin.commit_geometry', 'twin.stage_work_product_file'],
  mechanical_product: [
    ...CADKERNEL_SESSION.filter(
      (id) => !['cadkernel.linear_pattern', 'cadkernel.polar_pattern', 'cadkernel.mirror_feature'].includes(id),
    ),
    'twin.commit_geometry',
    'twin.stage_work_product_file',
    'twin.record_component_selection',
    'twin.record_constraint_set',
  ],
  simulation: [
    ...SOLVER,
    'cadkernel.generate_mesh',
    'cadkernel.get_properties',
    'cadscript.get_properties',
    'twin.record_document',
    'twin.stage_work_product_file',
    'twin.query_cypher',
  ],
  electronics: [
    ...EDA,
    'circuit.run_simulation',
    'twin.record_component_selection',
    'twin.record_constraint_set',
    'twin.record_document',
    'knowledge.ingest',
  ],
  robotics: [
    'cadscript.create_parametric',
    'cadscript.create_assembly',
    'cadkernel.open_session',
    'cadkernel.create_assembly',
    'cadkernel.add_assembly_joint',
    'cadkernel.list_joints',
    'cadkernel.transform_object',
    'cadkernel.measure',
    'cadkernel.import_step',
    'cadkernel.export_model',
    'solver.compute_joint_loads',
    'twin.commit_geometry',
    'twin.stage_work_product_file',
  ],
};

/** Profile name to its member tool ids (base first, no duplicates). */
export const PROFILES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(EXTRA).map(([name, extra]) => [name, [...new Set([...BASE_PROFILE, ...extra])]]),
);

export const PROFILE_NAMES = [...PROFILES.keys()];

/** Tools offered to a design-flow phase of a discipline (TOOLS.md, last paragraph of "Profiles"). */
export const PHASE_TOOL_BASE = [
  ...BASE_PROFILE,
  'twin.record_document',
  'twin.record_constraint_set',
  'twin.record_engineering_entity',
  'twin.query_cypher',
];
export const DISCIPLINE_PROFILE: Record<string, string> = {
  mechanical: 'mechanical_product',
  simulation: 'simulation',
  electronics: 'electronics',
  robotics: 'robotics',
};
