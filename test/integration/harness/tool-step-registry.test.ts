import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../contracts/actions/adapters.actions.ts';
import {
  approvalPolicy,
  listTools,
  planToolOffer,
  registryCaller,
  ToolTurn,
  type ToolStepDeps,
} from '../../../actors/harness/tools/index.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

/**
 * A model step's tool calls against the real registry (`tools` actor) and the real project adapter: the offer is the
 * registry's listing, calls go through `tools.call` with its validation and hold policy, as an MCP caller's would.
 */
describe('harness tool steps through the real tool registry', () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await startTestNode({ roles: 'tools,projects,adapter:project' });
  });
  afterAll(() => t.stop());

  async function turnFor(caller: Caller) {
    const broker = t.node.broker;
    const plan = planToolOffer(await listTools(broker), { family: 'openai_compatible' });
    const ran: string[] = [];
    const viaRegistry = registryCaller(broker, caller);
    const deps: ToolStepDeps = {
      byName: plan.byName,
      requiresApproval: approvalPolicy(caller),
      callTool: (id, args) => {
        ran.push(id);
        return viaRegistry(id, args);
      },
    };
    return { plan, ran, turn: new ToolTurn(deps) };
  }

  it('offers the project tools and runs create then get for a design-flow phase (approval mode forward)', async () => {
    const { plan, ran, turn } = await turnFor({ kind: 'service', transport: 'internal' });
    expect(plan.offers.map((o) => o.name)).toEqual(
      expect.arrayContaining(['project__create', 'project__get', 'project__list']),
    );
    const created = await turn.runStep([
      { id: 'c1', name: 'project__create', arguments: { name: 'Harness rover' } },
      { id: 'c2', name: 'project__get', arguments: {} },
    ]);
    expect(created[0].envelope).toMatchObject({ status: 'success', tool: 'project.create' });
    expect(created[1].envelope).toMatchObject({
      status: 'error',
      error: 'invalid_arguments',
      validation_errors: [{ path: 'project_id', message: 'is required' }],
    });
    expect(ran).toEqual(['project.create']);

    const env = created[0].envelope;
    if (env.status !== 'success') throw new Error(JSON.stringify(env));
    const id = env.data.id as string;
    const got = await turn.runStep([{ id: 'c3', name: 'project__get', arguments: { project_id: id } }]);
    expect(got[0].envelope).toMatchObject({ status: 'success', data: { id, name: 'Harness rover' } });
    const again = await turn.runStep([{ id: 'c4', name: 'project__get', arguments: { project_id: id } }]);
    expect(again[0].envelope).toMatchObject({ status: 'success', cached: true });
    expect(ran).toEqual(['project.create', 'project.get']);

    const missing = await turn.runStep([{ id: 'c5', name: 'project__get', arguments: { project_id: 'nope' } }]);
    expect(missing[0].envelope).toMatchObject({ status: 'error', failure_class: 'tool', hint: expect.any(String) });
  });

  it("holds a chat's write for a person: with no approval gate configured the call is refused, never run", async () => {
    const { turn } = await turnFor({ kind: 'remote', transport: 'internal' });
    const obs = await turn.runStep([
      { id: 'c1', name: 'project__list', arguments: {} },
      { id: 'c2', name: 'project__create', arguments: { name: 'Not approved' } },
    ]);
    expect(obs[0].envelope.status).toBe('success');
    expect(obs[1].envelope).toMatchObject({
      status: 'error',
      error: 'approval_required',
      details: { outcome: 'not_configured' },
    });
  });
});
