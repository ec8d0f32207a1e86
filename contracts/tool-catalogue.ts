import { z } from 'zod';

/**
 * The service's tool catalogue, 97 tools: canonical ids, annotation classes and minimum phase.
 * Classes: R read-only, R* read-only unless twin mutations are permitted, A additive, P produces, D may overwrite or
 * delete, S CAD-session scratch edit, O open-world, I idempotent. This table is the one place they are written;
 * adapters take their annotations from it and the hold policy reads the same classes.
 * W (this service's, docs/decisions/0030-export-writes.md): the tool writes the workspace only where the call names an
 * output (OUTPUT_ARGS); without one it writes nothing but its own scratch folder. V: a P tool whose `overwrite: true`
 * replaces an existing output. Both are listed by their worst call (destructiveHint true) and the hold policy judges
 * each call by what it can write (`callAnnotations`).
 */
export const ToolClassSchema = z.enum(['R', 'R*', 'A', 'P', 'D', 'S']);
export type ToolClass = z.infer<typeof ToolClassSchema>;

/**
 * How a call is sent again when the adapter's node is lost while it runs (SPEC "Execution lifecycle": retry applies
 * only to idempotent skills, up to the skill's configured retries). `retries` more sends after the first, waiting
 * `backoff_ms` before the first of them and twice as long before each next one, at most `max_backoff_ms`. A tool that is
 * not idempotent has `retries: 0`: its call is never sent twice (decision 0147).
 */
export interface RetryPolicy {
  retries: number;
  backoff_ms: number;
  max_backoff_ms: number;
}

/** A tool that is not idempotent: never sent again. */
export const NO_RETRY: RetryPolicy = Object.freeze({ retries: 0, backoff_ms: 0, max_backoff_ms: 0 });
/** An idempotent tool's policy unless RETRY_OF names its own. */
export const IDEMPOTENT_RETRY: RetryPolicy = Object.freeze({ retries: 2, backoff_ms: 500, max_backoff_ms: 4000 });

/**
 * Idempotent tools whose retries differ from IDEMPOTENT_RETRY: open-world calls (another site's load) and engine
 * reads that run a solver many times over (one more try, later), the one idempotent delete (once more).
 */
const RETRY_OF: Record<string, RetryPolicy> = {
  'web.search': { retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 },
  'web.fetch': { retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 },
  'solver.check_mesh_convergence': { retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 },
  'solver.cross_check_cantilever_beam': { retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 },
  'solver.cross_check_cantilever_frequency': { retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 },
  'solver.cross_check_thermal_steady_state': { retries: 1, backoff_ms: 1000, max_backoff_ms: 1000 },
  'project.delete': { retries: 1, backoff_ms: 500, max_backoff_ms: 500 },
};

export interface CatalogueEntry {
  id: string;
  adapter: string;
  cls: ToolClass;
  openWorld: boolean;
  idempotent: boolean;
  phase: number;
  /** Needs a person: attempt_promotion, approve_design_loop, approve_engineering_change. */
  humanAuthority: boolean;
  /** W: writes the workspace only through the call's OUTPUT_ARGS (else only its scratch folder); see `callAnnotations`. */
  outputArgsOnly: boolean;
  /** V: produces a new file, and replaces an existing one only when the call says `overwrite: true`. */
  overwriteOnly: boolean;
  /** Sends again on a lost node: NO_RETRY unless idempotent. */
  retry: RetryPolicy;
}

/** The arguments through which a W tool's call writes the workspace; `overwrite: true` lets it replace a file. */
export const OUTPUT_ARGS = ['output_path', 'output_dir'] as const;

type Row = [name: string, cls: string];
const row = (spec: string): Row => {
  const [name, cls] = spec.split(' ');
  return [name, cls ?? ''];
};

/**
 * Per adapter: `name CLASS[+O][+I][+2][+H][+W][+V]` (+2 = phase 2 authoring tool, +H = human authority, +W = writes
 * the workspace only through output arguments, +V = overwrites only with `overwrite: true`). TOOLS.md lists eda's
 * export_bom, export_gerber and export_netlist as R; they write files where the caller says, so they are D+W here
 * (issue 27, decision 0030).
 */
const RAW: Record<string, string[]> = {
  solver: [
    'run_fea P',
    'run_thermal P',
    'validate_mesh R',
    'extract_results R',
    'check_mesh_convergence R',
    'cross_check_cantilever_beam R',
    'cross_check_cantilever_frequency R',
    'cross_check_thermal_steady_state R',
    'compute_joint_loads R',
  ],
  circuit: ['run_simulation P'],
  cadscript: [
    'create_parametric P+V',
    'boolean_operation D',
    'get_properties R',
    'export_geometry D',
    'execute_script D',
    'create_assembly P+2+V',
    'generate_enclosure P+2+V',
  ],
  cadkernel: [
    // 6 stateless file tools
    'create_parametric P+V',
    'boolean_operation D',
    'get_properties R',
    'export_geometry D',
    'describe_step_file R',
    'generate_mesh P+V',
    // 27 session tools (phase 2)
    'open_session S+2',
    'close_session S+2',
    'describe_session R+2',
    'create_primitive S+2',
    'create_body S+2',
    'create_sketch S+2',
    'pad_sketch S+2',
    'pocket_sketch S+2',
    'revolve_sketch S+2',
    'loft_sketches S+2',
    'sweep_sketch S+2',
    'fillet_edges S+2',
    'chamfer_edges S+2',
    'shell_solid S+2',
    'linear_pattern S+2',
    'polar_pattern S+2',
    'mirror_feature S+2',
    'boolean S+2',
    'transform_object S+2',
    'measure R+2',
    'describe_model R+2',
    'execute_code D+2',
    'import_step S+2',
    'export_model P+2+V',
    'create_assembly S+2',
    'add_assembly_joint S+2',
    'list_joints R+2',
  ],
  eda: [
    'run_erc R',
    'run_drc R',
    'export_bom D+W',
    'export_gerber D+W',
    'export_netlist D+W',
    'get_pin_mapping R',
    'generate_schematic P+2',
    'auto_route D+2',
  ],
  twin: [
    'get_node R',
    'item_history R',
    'query_cypher R*',
    'record_document A',
    'commit_geometry A+2',
    'stage_work_product_file A',
    'record_decision A',
    'record_constraint_set A',
    'record_engineering_entity A',
    'record_component_selection A',
    'propose_change A',
    'attempt_promotion D+H',
    'approve_design_loop D+H',
    'approve_engineering_change D+H',
  ],
  flow: [
    'list R',
    'status R',
    'compile_intent R',
    'capabilities R',
    'lifecycle R',
    'verify_completion R',
    'propose A',
    'start_run A',
    'patch A',
    'await_gate A',
  ],
  project: ['create A', 'get R', 'list R', 'update D', 'delete D+I'],
  tools: ['search R'],
  session: ['start A', 'log_event A', 'complete A'],
  knowledge: ['search R', 'ingest A'],
  memory: ['retrieve_similar_experience R', 'list_insights R'],
  web: ['search R+O', 'fetch R+O'],
};

function parseEntry(adapter: string, spec: string): CatalogueEntry {
  const [name, flags] = row(spec);
  const [cls, ...mods] = flags.split('+');
  const readOnly = cls === 'R';
  const id = `${adapter}.${name}`;
  // Every read-only tool is also idempotent (TOOLS.md).
  const idempotent = readOnly || mods.includes('I');
  return {
    id,
    adapter,
    cls: ToolClassSchema.parse(cls),
    openWorld: mods.includes('O'),
    idempotent,
    phase: mods.includes('2') ? 2 : 1,
    humanAuthority: mods.includes('H'),
    outputArgsOnly: mods.includes('W'),
    overwriteOnly: mods.includes('V'),
    retry: idempotent ? (RETRY_OF[id] ?? IDEMPOTENT_RETRY) : NO_RETRY,
  };
}

/** All 97 catalogue entries, keyed by canonical id. */
export const TOOL_CATALOGUE: ReadonlyMap<string, CatalogueEntry> = new Map(
  Object.entries(RAW)
    .flatMap(([adapter, specs]) => specs.map((s) => parseEntry(adapter, s)))
    .map((e) => [e.id, e]),
);

/**
 * The retry policy of a call to `toolId` as its adapter announced it: the catalogue's entry, or for a tool the
 * catalogue does not list, IDEMPOTENT_RETRY when it announces itself idempotent. Never retried when the adapter does not
 * announce it idempotent, whatever the catalogue says (the two must agree to send a call twice).
 */
export function retryPolicyOf(toolId: string, announcedIdempotent: boolean): RetryPolicy {
  if (!announcedIdempotent) return NO_RETRY;
  const e = TOOL_CATALOGUE.get(toolId);
  return e ? e.retry : IDEMPOTENT_RETRY;
}

/** The wait before send number `retry` (1 = the first send again) of a policy: doubling from backoff_ms, capped. */
export function backoffOf(p: RetryPolicy, retry: number): number {
  return Math.min(p.backoff_ms * 2 ** (retry - 1), p.max_backoff_ms);
}

/** MCP annotations of a catalogue entry (TOOLS.md classes); `twinMutations` turns R* into a write. */
export function annotationsOf(e: CatalogueEntry, twinMutations = false) {
  const readOnly = e.cls === 'R' || (e.cls === 'R*' && !twinMutations);
  return {
    readOnlyHint: readOnly,
    destructiveHint: readOnly ? false : e.cls === 'D' || e.overwriteOnly || (e.cls === 'R*' && twinMutations),
    idempotentHint: readOnly || e.idempotent,
    openWorldHint: e.openWorld,
  };
}

/**
 * The annotations of one call (the hold policy's view): a W tool's call that names no output writes only its own
 * scratch folder, so it is read-only for the workspace; one that names an output is an additive write, destructive
 * only with `overwrite: true`; a V tool's call is destructive only with `overwrite: true`. Any other tool's call is
 * its tool's annotations. Without the arguments: the tool's.
 */
export function callAnnotations<A extends { readOnlyHint: boolean; destructiveHint: boolean }>(
  annotations: A,
  entry: CatalogueEntry | undefined,
  args: Record<string, unknown> | undefined,
): A {
  if (args === undefined) return annotations;
  if (entry?.overwriteOnly) return { ...annotations, destructiveHint: args.overwrite === true };
  if (!entry?.outputArgsOnly) return annotations;
  if (!OUTPUT_ARGS.some((k) => args[k] !== undefined))
    return { ...annotations, readOnlyHint: true, destructiveHint: false };
  return { ...annotations, readOnlyHint: false, destructiveHint: args.overwrite === true };
}

/** Annotations of a tool nobody classified (SPEC "Tool annotations"). */
export const UNCLASSIFIED_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
