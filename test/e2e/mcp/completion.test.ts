import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { TwinActions } from '../../../contracts/actions/twin.actions.ts';
import { postJson } from '../../support/http-raw.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

const t = useTestNode();

async function connect() {
  const client = new Client({ name: 'completion-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
  return client;
}
const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;
const objective = (project: string, name: string) =>
  call(t.node.broker, TwinActions.writeDefinition, { project_id: project, item_type: 'objective', name });
const promptRef = (name: string) => ({ type: 'ref/prompt' as const, name });
const templateRef = (uri: string) => ({ type: 'ref/resource' as const, uri });

describe('completion/complete over the official SDK client', () => {
  it('completes flow names and project ids (by id or by name) for prompt arguments', async () => {
    const p = await newProject('Gearbox housing');
    const client = await connect();
    const flows = await client.complete({
      ref: promptRef('run_design_flow'),
      argument: { name: 'design_flow', value: 'me' },
    });
    expect(flows.completion).toEqual({ values: ['mech_v1'], total: 1, hasMore: false });
    const byName = await client.complete({
      ref: promptRef('run_design_flow'),
      argument: { name: 'project_id', value: 'gearbox hous' },
    });
    expect(byName.completion.values).toEqual([p]);
    const byId = await client.complete({
      ref: promptRef('review_simulation_result'),
      argument: { name: 'project_id', value: p.slice(0, 8) },
    });
    expect(byId.completion.values).toContain(p);
    // Free text has no values to offer.
    const goal = await client.complete({ ref: promptRef('run_design_flow'), argument: { name: 'goal', value: 'a' } });
    expect(goal.completion).toEqual({ values: [], total: 0, hasMore: false });
    await client.close();
  });

  it("completes a template's item keys within the project already chosen, at most 100 with total and hasMore", async () => {
    const big = await newProject('many items');
    const small = await newProject('few items');
    for (let i = 0; i < 120; i++) await objective(big, `Objective ${i}`);
    const only = await objective(small, 'Lonely objective');
    const client = await connect();
    const template = templateRef('service://projects/{project_id}/work-products/{item_key}');
    const many = await client.complete({
      ref: template,
      argument: { name: 'item_key', value: 'OBJ-' },
      context: { arguments: { project_id: big } },
    });
    expect(many.completion.values).toHaveLength(100);
    expect(many.completion).toMatchObject({ total: 120, hasMore: true });
    const few = await client.complete({
      ref: template,
      argument: { name: 'item_key', value: '' },
      context: { arguments: { project_id: small } },
    });
    expect(few.completion).toEqual({ values: [only.item_key], total: 1, hasMore: false });
    await client.close();
  });

  it('completes result ids of the project for the review prompt and the result template', async () => {
    const p = await newProject('results to complete');
    const r = await okData<{ node_id: string }>(
      callTool(t.node.broker, 'twin.record_document', {
        project_id: p,
        document_type: 'simulation_result',
        name: 'Housing thermal',
        summary: {},
      }),
    );
    const client = await connect();
    const viaPrompt = await client.complete({
      ref: promptRef('review_simulation_result'),
      argument: { name: 'result_id', value: 'thermal' },
      context: { arguments: { project_id: p } },
    });
    expect(viaPrompt.completion.values).toEqual([r.node_id]);
    const viaTemplate = await client.complete({
      ref: templateRef('service://projects/{project_id}/sim-results/{result_id}'),
      argument: { name: 'result_id', value: '' },
      context: { arguments: { project_id: p } },
    });
    expect(viaTemplate.completion.values).toEqual([r.node_id]);
    await client.close();
  });

  it('answers -32602 for an unknown prompt, argument, template or variable', async () => {
    const client = await connect();
    const cases = [
      { ref: promptRef('no_such_prompt'), argument: { name: 'x', value: '' } },
      { ref: promptRef('run_design_flow'), argument: { name: 'flow', value: '' } },
      { ref: templateRef('service://projects/{project_id}/secrets'), argument: { name: 'project_id', value: '' } },
      { ref: templateRef('service://projects/{project_id}/sim-results'), argument: { name: 'item_key', value: '' } },
    ];
    for (const req of cases) {
      const err = await client.complete(req).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(req)).toBeInstanceOf(McpError);
      expect((err as McpError).code, JSON.stringify(req)).toBe(-32602);
    }
    await client.close();
  });
});
