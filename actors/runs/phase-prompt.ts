import type { PhaseInput } from './executor.ts';
import { DELIVERABLE_TOOLS } from './capabilities.ts';

/**
 * The conversation a model-driven phase starts from (pure): a system prompt built from the phase definition (objective,
 * required deliverables and the tool that records each, expected artifacts, gate criteria) and what earlier phases of
 * the run delivered; a user message with the request and the RETRY / REWORK notes, read first.
 */
export function phaseMessages(
  input: PhaseInput,
): [{ role: 'system'; content: string }, { role: 'user'; content: string }] {
  const p = input.phase;
  const recorder = (t: string) =>
    Object.hasOwn(DELIVERABLE_TOOLS, t) ? ` (recorded with ${DELIVERABLE_TOOLS[t].record})` : '';
  const prior = Object.entries(input.prior).flatMap(([phase, ds]) =>
    ds.map((d) => `- ${phase}: ${d.type} node ${d.node_id}${d.ref ? ` (${d.ref})` : ''}`),
  );
  const system = [
    `You drive phase "${p.title}" (${p.id}) of design flow ${input.flow_id}, run ${input.run_id}${input.project_id ? `, project ${input.project_id}` : ''}.`,
    `Objective: ${p.objective}`,
    `Required deliverables, each recorded in the digital twin by a successful tool call of yours in this turn:`,
    ...(p.required_deliverables.length ? p.required_deliverables.map((t) => `- ${t}${recorder(t)}`) : ['- none']),
    ...(p.expected_artifacts.length ? [`Expected artifacts: ${p.expected_artifacts.join(', ')}.`] : []),
    `Gate "${p.gate.name}" (${p.gate.gate_id}) criteria:`,
    ...(p.gate.criteria.length ? p.gate.criteria.map((c) => `- ${c}`) : ['- (none listed)']),
    `Earlier phases of this run delivered:`,
    ...(prior.length ? prior : ['- nothing yet']),
    'Rules: work only through the tools offered; record every deliverable in the twin (writes are drafts of this run ' +
      'until a person approves the gate); never state that something was created, recorded or committed unless a tool ' +
      'call of yours did it; if a tool or engine is unavailable, say so instead of estimating; a tool refused for ' +
      'approval is not run, so do not report it as done. End with a short summary that names the node ids you recorded.',
  ].join('\n');
  const goal = typeof input.request.goal === 'string' ? input.request.goal : '(no goal stated)';
  const context = input.request.context && Object.keys(input.request.context).length ? input.request.context : null;
  const facts = Object.keys(input.facts).length ? input.facts : null;
  const user = [
    ...input.notes,
    `Request: ${goal}`,
    ...(context ? [`Context: ${JSON.stringify(context)}`] : []),
    ...(facts ? [`Facts frozen with the flow: ${JSON.stringify(facts)}`] : []),
    input.attempt > 1 ? `This is attempt ${input.attempt} of the phase.` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
