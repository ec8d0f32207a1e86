import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { RunsActions } from '../../../contracts/actions/runs.actions.ts';
import { TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
import { postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

const t = useTestNode();

async function connect() {
  const client = new Client({ name: 'prompts-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
  return client;
}
const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const errorOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
};
type Message = { role: string; content: { type: string; text?: string; resource?: { uri: string; text?: string } } };
const textsOf = (messages: Message[]) =>
  messages.filter((m) => m.content.type === 'text').map((m) => m.content.text ?? '');
/** `adapter.method` names in a rendered prompt that are not tools of the catalogue. */
const unknownTools = (text: string) =>
  [...text.matchAll(/\b([a-z]+\.[a-z_]+)\b/g)]
    .map((m) => m[1])
    .filter((n) => /^(flow|twin|project|solver|knowledge|memory|tools|session)\./.test(n))
    .filter((n) => !TOOL_CATALOGUE.has(n));

describe('prompts over the official SDK client', () => {
  it('lists the service prompts with their arguments (no fixture prompts without the flag)', async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'run_design_flow',
      'review_simulation_result',
      'prepare_gate_decision',
    ]);
    expect(prompts[0].arguments).toEqual([
      expect.objectContaining({ name: 'goal', required: true }),
      expect.objectContaining({ name: 'design_flow' }),
      expect.objectContaining({ name: 'project_id' }),
    ]);
    for (const p of prompts) expect(p.description?.length, p.name).toBeGreaterThan(20);
    await client.close();
  });

  it("renders the design-flow walk-through with the flow's real phases, gates and the project", async () => {
    const p = await newProject('Bracket programme');
    const client = await connect();
    const res = await client.getPrompt({
      name: 'run_design_flow',
      arguments: { goal: 'An aluminium bracket holding 2 kN', project_id: p },
    });
    const [text] = textsOf(res.messages as Message[]);
    expect(text).toContain('"Mechanical part" design-flow run (mech_v1 1.0.0)');
    expect(text).toContain('An aluminium bracket holding 2 kN');
    expect(text).toContain('Gate G1 "Intent sign-off"');
    expect(text).toContain('Gate G7 "V&V sign-off" checks the constraints');
    expect(text).toContain(`project.get {"project_id": "${p}"}: confirm the project is "Bracket programme".`);
    expect(text).toContain(`flow.start_run {"design_flow": "mech_v1", "goal": <the goal>, "project_id": "${p}"}`);
    expect(text).not.toMatch(/\{\{[a-z_]+\}\}/);
    expect(unknownTools(text)).toEqual([]);
    const hw = await client.getPrompt({
      name: 'run_design_flow',
      arguments: { goal: 'x', design_flow: 'hardware_v1' },
    });
    expect(textsOf(hw.messages as Message[])[0]).toContain('(hardware_v1 ');
    await client.close();
  });

  it('embeds the simulation result it reviews and names the checks with real tools', async () => {
    const p = await newProject('sim review');
    const r = await okData<{ node_id: string }>(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: p,
        document_type: 'simulation_result',
        name: 'Bracket static 2 kN',
        summary: { max_von_mises_mpa: 182.5 },
      }),
    );
    const client = await connect();
    const res = await client.getPrompt({
      name: 'review_simulation_result',
      arguments: { project_id: p, result_id: r.node_id },
    });
    const [embedded, instructions] = res.messages as Message[];
    expect(embedded.content.type).toBe('resource');
    expect(embedded.content.resource?.uri).toBe(`service://projects/${p}/sim-results/${r.node_id}`);
    expect(JSON.parse(embedded.content.resource?.text ?? '{}').node).toMatchObject({ id: r.node_id });
    expect(instructions.content.text).toContain('"Bracket static 2 kN"');
    expect(instructions.content.text).toContain('not marked stale');
    expect(instructions.content.text).toContain('solver.check_mesh_convergence');
    expect(unknownTools(instructions.content.text ?? '')).toEqual([]);
    // The same result named under another project is refused, as an invalid argument.
    const other = await newProject('not the owner');
    const err = await errorOf(
      client.getPrompt({ name: 'review_simulation_result', arguments: { project_id: other, result_id: r.node_id } }),
    );
    expect(err.code).toBe(-32602);
    expect(err.message).toContain(`result_id ${r.node_id} is not a simulation result of project ${other}`);
    await client.close();
  });

  it('prepares a gate decision from the real run and its open gate', { timeout: 120_000 }, async () => {
    const p = await newProject('gate brief');
    const run = await call(t.node.broker, RunsActions.start, {
      design_flow: 'mech_v1',
      project_id: p,
      goal: 'A steel hook for 50 kg',
    });
    await expect
      .poll(
        async () => {
          const v = await call(t.node.broker, RunsActions.get, { run_id: run.id });
          if (v.ended) throw new Error(`run ended: ${JSON.stringify(v.ended)}`);
          return v.gate?.phase;
        },
        { timeout: 100_000, interval: 250 },
      )
      .toBe('intent');
    const client = await connect();
    const res = await client.getPrompt({ name: 'prepare_gate_decision', arguments: { run_id: run.id } });
    const [text] = textsOf(res.messages as Message[]);
    expect(text).toContain(`Prepare the decision on the gate of run ${run.id}`);
    expect(text).toContain('goal: "A steel hook for 50 kg"');
    expect(text).toContain('Open gate: "Intent sign-off" of phase intent, attempt 1');
    // The brief carries the gate as the run actor sees it: readiness, each finding, the decisions it allows.
    const gate = (await call(t.node.broker, RunsActions.get, { run_id: run.id })).gate!;
    expect(text).toContain(gate.ready ? ', ready' : 'NOT ready: approve is refused');
    for (const f of gate.findings) expect(text).toContain(`- ${f.kind} (${f.severity}): ${f.message}`);
    expect(text).toContain(`Allowed decisions: ${gate.allowed_decisions.join(', ')}`);
    expect(text).toContain(`gate:${run.id}`);
    expect(unknownTools(text)).toEqual([]);
    await client.close();
  });
});

describe('bad prompt requests', () => {
  it('answers -32602 with a clear message: unknown prompt, missing or blank required argument, undeclared argument, unknown values', async () => {
    const client = await connect();
    const cases: [Parameters<Client['getPrompt']>[0], string][] = [
      [{ name: 'no_such_prompt' }, 'Unknown prompt: no_such_prompt; prompts: run_design_flow'],
      [{ name: 'run_design_flow', arguments: {} }, "needs goal (the design goal in the requester's words)"],
      [{ name: 'run_design_flow', arguments: { goal: '   ' } }, 'needs goal'],
      [{ name: 'run_design_flow', arguments: { goal: 'x', flow: 'mech_v1' } }, 'takes no argument flow'],
      [
        { name: 'run_design_flow', arguments: { goal: 'x', design_flow: 'nope_v9' } },
        'design_flow nope_v9 is not a design flow; known:',
      ],
      [
        { name: 'run_design_flow', arguments: { goal: 'x', project_id: 'no-such-project' } },
        'project_id no-such-project is not a project',
      ],
      [
        { name: 'prepare_gate_decision', arguments: { run_id: 'run_nope' } },
        'run_id run_nope is not a design-flow run',
      ],
      [{ name: 'review_simulation_result', arguments: { project_id: 'x' } }, 'needs result_id'],
    ];
    for (const [req, message] of cases) {
      const err = await errorOf(client.getPrompt(req));
      expect(err.code, JSON.stringify(req)).toBe(-32602);
      expect(err.message, JSON.stringify(req)).toContain(message);
    }
    await client.close();
  });
});
