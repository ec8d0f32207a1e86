import { call, type Caller } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { RunFlowActions } from '../../../contracts/actions/design-flows.actions.ts';
import { ProjectsActions } from '../../../contracts/actions/projects.actions.ts';
import { RunsActions, type RunView } from '../../../contracts/actions/runs.actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import type { McpGetPromptResult, McpPromptMessage, McpResourceContents } from '../../../contracts/mcp-features.ts';
import type { CandidateSources } from '../candidates.ts';
import { Uris } from '../resources/uris.ts';
import { fill, PROMPT_TEXTS, type PromptText } from './catalogue.ts';
import { unknownValue, type PromptSource } from './source.ts';

/** The default flow of `run_design_flow`. */
const DEFAULT_FLOW = 'mech_v1';

const text = (t: string): McpPromptMessage => ({ role: 'user', content: { type: 'text', text: t } });

/** Runs an actor read; an unknown id becomes -32602 naming the argument (a prompt argument is a param, not a resource). */
async function lookup<T>(read: Promise<T>, prompt: string, argument: string, value: string, what: string): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ActorError && (err.type === 'NOT_FOUND' || err.type === 'VALIDATION_FAILED'))
      throw unknownValue(prompt, argument, value, `is not ${what}`);
    throw err;
  }
}

/** The open gate of a run as the brief opens with it (catalogue parts `gate`, `no_gate`). */
function gateBlock(t: PromptText, run: RunView): string {
  const parts = t.parts!;
  const g = run.gate;
  if (!g) return fill(parts.no_gate, { status: run.status });
  const rework = g.rework_targets.length ? ` (rework can go back to ${g.rework_targets.join(', ')})` : '';
  return fill(parts.gate, {
    gate_name: g.name,
    phase: g.phase,
    attempt: String(g.attempt),
    gate_state: `${g.ready ? parts.ready : parts.not_ready}${g.stalled ? ', stalled' : ''}`,
    findings: g.findings.length
      ? g.findings.map((f) => `- ${f.kind} (${f.severity}): ${f.message}`).join('\n')
      : '- none',
    decisions: `${g.allowed_decisions.join(', ')}${rework}`,
  });
}

/**
 * The service's own prompts (catalogue.ts), filled with live data read over the bus: the flow's phases and gates,
 * the project, the run and its open gate, the result itself (embedded as a resource). `readResource` is the
 * `resources/read` of this server, so the embedded result is exactly what reading its URI gives.
 */
export function servicePrompts(
  bus: Caller,
  candidates: CandidateSources,
  readResource: (uri: string) => Promise<McpResourceContents[]>,
): PromptSource {
  const byName = new Map(PROMPT_TEXTS.map((p) => [p.name, p]));
  const project = (p: string, id: string) =>
    lookup(call(bus, ProjectsActions.get, { id }), p, 'project_id', id, 'a project');

  const render: Record<string, (t: PromptText, a: Record<string, string>) => Promise<McpGetPromptResult>> = {
    async run_design_flow(t, a) {
      const flowId = a.design_flow ?? DEFAULT_FLOW;
      const { flows } = await call(bus, RunFlowActions.flowCatalog, {});
      const flow = flows.find((f) => f.id === flowId);
      if (!flow)
        throw unknownValue(
          t.name,
          'design_flow',
          flowId,
          `is not a design flow; known: ${flows.map((f) => f.id).join(', ')}`,
        );
      const proj = a.project_id ? await project(t.name, a.project_id) : undefined;
      const phases = flow.phases.map(
        (ph, i) =>
          `${i + 1}. ${ph.title} (${ph.id}): ${ph.objective} Delivers ${ph.required_deliverables.join(', ')}. Gate ${ph.gate.gate_id} "${ph.gate.name}"${ph.gate.enforce_constraints ? ' checks the constraints' : ''}${ph.condition ? `; only when ${ph.condition}` : ''}.`,
      );
      const values = {
        goal: a.goal,
        design_flow: flow.id,
        flow_name: flow.name,
        flow_version: flow.version,
        phases: phases.join('\n'),
        project_line: proj ? `Project: "${proj.name}" (${proj.id}).` : 'Project: none given yet.',
        project_step: proj
          ? fill(t.parts!.project_known, { project_id: proj.id, project_name: proj.name })
          : t.parts!.project_unknown,
        project_arg: proj ? `, "project_id": "${proj.id}"` : ', "project_id": <the project id>',
      };
      return { description: `${flow.name} run for: ${a.goal.slice(0, 120)}`, messages: [text(fill(t.lines, values))] };
    },

    async review_simulation_result(t, a) {
      const proj = await project(t.name, a.project_id);
      const notResult = `a simulation result of project ${proj.id}`;
      const node = await lookup(
        call(bus, TwinActions.getNode, { node_id: a.result_id }),
        t.name,
        'result_id',
        a.result_id,
        notResult,
      );
      const uri = Uris.simResult.expand({ project_id: proj.id, result_id: node.id });
      if (node.node_type !== 'simulation_result' || node.project_id !== proj.id || !uri)
        throw unknownValue(t.name, 'result_id', a.result_id, `is not ${notResult}`);
      const [embedded] = await readResource(uri);
      const values = {
        result_name: node.name,
        result_id: node.id,
        project_id: proj.id,
        project_name: proj.name,
        stale_line: node.stale
          ? fill(t.parts!.stale, { stale_reason: node.stale_reason ?? 'no reason recorded' })
          : t.parts!.current,
        run_line: node.run_id ? fill(t.parts!.in_run, { run_id: node.run_id }) : t.parts!.no_run,
      };
      return {
        description: `Review of ${node.name}`,
        messages: [{ role: 'user', content: { type: 'resource', resource: embedded } }, text(fill(t.lines, values))],
      };
    },

    async prepare_gate_decision(t, a) {
      const run = await lookup(
        call(bus, RunsActions.get, { run_id: a.run_id }),
        t.name,
        'run_id',
        a.run_id,
        'a design-flow run',
      );
      const values = {
        run_id: run.id,
        design_flow: run.design_flow,
        status: run.status,
        goal: run.goal,
        gate_block: gateBlock(t, run),
      };
      return { description: `Gate brief for run ${run.id}`, messages: [text(fill(t.lines, values))] };
    },
  };

  return {
    prompts: PROMPT_TEXTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map(({ completes: _c, ...arg }) => arg),
    })),

    get: (name, args) => render[name](byName.get(name)!, args),

    async complete(prompt, argument, context) {
      const source = byName.get(prompt)?.arguments.find((x) => x.name === argument)?.completes;
      if (source === 'projects') return candidates.projects();
      if (source === 'flows') return candidates.flows();
      if (source === 'simResults') return candidates.simResults(context.project_id);
      if (source === 'runs') return candidates.runs(context.project_id);
      return [];
    },
  };
}
