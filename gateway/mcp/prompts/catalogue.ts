import type { McpPromptArgument } from '../../../contracts/mcp-features.ts';

/** Where completion finds values for an argument (gateway/mcp/candidates.ts). */
export type CompletionSource = 'projects' | 'flows' | 'simResults' | 'runs';

/** A prompt argument as listed, plus where its values complete from. */
export type PromptArgumentDef = McpPromptArgument & { completes?: CompletionSource };

/**
 * One of the service's prompts as data: what `prompts/list` shows, and the text `prompts/get` sends, line by line.
 * `{{name}}` is replaced once by an argument or by live data the prompt reads (never re-expanded). Every tool a text
 * names is a real tool of contracts/tool-catalogue.ts (test/unit/mcp-prompts-catalogue.test.ts holds that).
 */
export interface PromptText {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgumentDef[];
  lines: string[];
  /** Alternative sentences a placeholder takes, chosen from live data (filled the same way as the lines). */
  parts?: Record<string, string>;
}

/** Starting and shepherding a design-flow run: which flow.* tools to call, in which order, and where people decide. */
const runDesignFlow: PromptText = {
  name: 'run_design_flow',
  title: 'Start and shepherd a design-flow run',
  description:
    'Walks an agent through a gated design-flow run (mech_v1 by default): capability check, intent, start, the gates a person decides, and the completion verdict.',
  arguments: [
    { name: 'goal', description: "the design goal in the requester's words", required: true },
    { name: 'design_flow', description: 'the flow to run: mech_v1 (default) or hardware_v1', completes: 'flows' },
    { name: 'project_id', description: 'the project the run belongs to (optional)', completes: 'projects' },
  ],
  lines: [
    'You are shepherding a "{{flow_name}}" design-flow run ({{design_flow}} {{flow_version}}) for this goal:',
    '"{{goal}}"',
    '{{project_line}}',
    '',
    'The run moves through these phases; each ends at a gate a person decides:',
    '{{phases}}',
    '',
    'Call the tools by these exact names, in this order:',
    '1. flow.capabilities {"flow": "{{design_flow}}"}: every phase must be READY or READY_WITH_WARNINGS. If it is BLOCKED, stop and tell the person what each blocked phase lists under missing (a phase without a deterministic handler, a deliverable without a tool, a tool its adapter reports unavailable).',
    '2. flow.compile_intent with the goal: ask the person about every blocking unknown before starting; never invent a value.',
    '3. {{project_step}}',
    '4. flow.start_run {"design_flow": "{{design_flow}}", "goal": <the goal>{{project_arg}}}: keep the run id (run_...) it answers. It is a write: called remotely it waits for a person to approve it.',
    '5. While the run is active, flow.status {"run_id": <run id>} shows the running phase and any open gate, and flow.lifecycle {"run_id": <run id>} shows stale outputs and the next step. Before a gate, read what the phase recorded with twin.item_history and twin.get_node.',
    '6. When a gate is open, call flow.await_gate {"run_id": <run id>}: it asks the person in this client. If it answers awaiting_gate, tell the person the approval id (gate:<run id>) and that they decide it on the Approvals page. Never decide a gate yourself.',
    '7. After the last gate, flow.verify_completion {"run_id": <run id>}: only COMPLETED_VERIFIED counts as done, and "no_data" is never a pass. Report the verdict, each requirement and the limits.',
  ],
  parts: {
    project_known: 'project.get {"project_id": "{{project_id}}"}: confirm the project is "{{project_name}}".',
    project_unknown:
      'No project was given: find one with project.list, or create one with project.create (a write: called remotely it waits for a person to approve it).',
  },
};

/** Reviewing one simulation result of a project before anyone relies on it. */
const reviewSimulationResult: PromptText = {
  name: 'review_simulation_result',
  title: 'Review a simulation result',
  description:
    'Checks one simulation result of a project (embedded): currency against the analysed geometry, set-up, mesh, plausibility and the verdict per constraint, then records the review.',
  arguments: [
    { name: 'project_id', description: 'the project the result belongs to', required: true, completes: 'projects' },
    {
      name: 'result_id',
      description: 'the node id of the simulation_result to review',
      required: true,
      completes: 'simResults',
    },
  ],
  lines: [
    'Review the simulation result "{{result_name}}" ({{result_id}}) of project "{{project_name}}", embedded above, before anyone relies on it. Cite what each tool answered.',
    '1. Currency: the result is {{stale_line}}. twin.get_node {"node_id": "{{result_id}}"} shows its DERIVES_FROM edge to the analysed geometry; twin.item_history on that geometry\'s item key tells whether the analysed revision is still the head. A result of an older revision is evidence for that revision only.',
    '2. Set-up: load case, fixtures, material and units (mm, MPa, C) must match the requirement being verified. twin.query_cypher with a bound project_id parameter ("{{project_id}}") finds the project\'s constraint sets.',
    '3. Mesh: solver.validate_mesh on the mesh file, and solver.check_mesh_convergence over at least three element sizes. An unconverged peak stress is not a verdict.',
    '4. Plausibility: where a closed form applies, compare with solver.cross_check_cantilever_beam, solver.cross_check_cantilever_frequency or solver.cross_check_thermal_steady_state. A large disagreement needs an explanation, not a dismissal.',
    '5. Verdict: for each constraint, compare its limit with the result and say pass, fail or no data. {{run_line}}',
    "6. Record the review with twin.record_decision, depends_on the analysed geometry's KEY@n, stating the verdict and the reasons.",
  ],
  parts: {
    stale: 'marked STALE ({{stale_reason}})',
    current: 'not marked stale',
    in_run:
      'It belongs to run {{run_id}}: flow.verify_completion {"run_id": "{{run_id}}"} shows how its gate reads it.',
    no_run: "It belongs to no run: compare against the project's current constraint sets.",
  },
};

/** Preparing a gate decision for the person who will take it. */
const prepareGateDecision: PromptText = {
  name: 'prepare_gate_decision',
  title: 'Prepare a gate decision for a person',
  description:
    'Gathers the evidence for the open gate of a design-flow run and writes the brief a person decides from; the person decides, never the agent.',
  arguments: [{ name: 'run_id', description: 'the design-flow run (run_...)', required: true, completes: 'runs' }],
  lines: [
    'Prepare the decision on the gate of run {{run_id}} for a person. You prepare; the person decides.',
    'Run: {{design_flow}}, status {{status}}, goal: "{{goal}}".',
    '{{gate_block}}',
    '',
    '1. flow.status {"run_id": "{{run_id}}"}: confirm the gate is still open; read its findings and allowed decisions.',
    '2. flow.lifecycle {"run_id": "{{run_id}}"}: phases that are stale or potentially invalid, requirements against current evidence, the next step.',
    '3. For each deliverable the phase required, read what was recorded with twin.item_history (item key) and twin.get_node (node id); note drafts, stale results and missing files.',
    '4. At the final gate, flow.verify_completion {"run_id": "{{run_id}}"}: only COMPLETED_VERIFIED means every requirement passed on current data.',
    '5. Look for earlier decisions and lessons that apply with knowledge.search and memory.retrieve_similar_experience.',
    '6. Write the brief: what the gate checks, the evidence (KEY@n refs and node ids), each finding with its severity, open risks, and your recommendation among the allowed decisions with its reason. Say plainly where evidence is missing.',
    '7. Put it to the person with flow.await_gate {"run_id": "{{run_id}}"}. If it answers awaiting_gate, give them the approval id gate:{{run_id}} to decide on the Approvals page. Never decide on their behalf.',
  ],
  parts: {
    no_gate: 'No gate is open right now (run status {{status}}); flow.await_gate waits for the next one.',
    gate: 'Open gate: "{{gate_name}}" of phase {{phase}}, attempt {{attempt}}, {{gate_state}}.\nFindings:\n{{findings}}\nAllowed decisions: {{decisions}}.',
    ready: 'ready',
    not_ready: 'NOT ready: approve is refused until its findings are resolved',
  },
};

/** The service's prompts, in the order `prompts/list` shows them. */
export const PROMPT_TEXTS: readonly PromptText[] = [runDesignFlow, reviewSimulationResult, prepareGateDecision];

/** Fills `{{name}}` placeholders in one pass; a value is never expanded again, and an unknown name stays visible. */
export function fill(lines: readonly string[] | string, values: Record<string, string>): string {
  const text = typeof lines === 'string' ? lines : lines.join('\n');
  return text.replace(/\{\{([a-z_]+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
