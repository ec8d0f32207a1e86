import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { RunFlowActions as F } from '../../../contracts/actions/design-flows.actions.ts';
import { HarnessUsageActions as U } from '../../../contracts/actions/harness-usage.actions.ts';
import { invokeViaRegistry, okData } from '../../support/tools.ts';
import { LOCAL_ROUTE, useLocalModel } from '../../support/llm-servers/local-model.ts';
import { useTestNode } from '../../support/node.ts';

// flow.propose from a request (runs.proposeFlow) on a real node, the flow_generator role routed by its variable to a
// local server speaking the OpenAI wire protocol: the model's operations are checked like a caller's, and an answer
// that fails the check leaves the base flow with a note.
const t = useTestNode({
  roles: 'harness,tools,holds,approvals,runs,adapter:flow',
  env: { SERVICE_ROUTE_FLOW_GENERATOR: LOCAL_ROUTE, SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' },
});
const model = useLocalModel(t);
const MECH = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];

const propose = (p: Record<string, unknown>) =>
  call(t.node.broker, F.proposeFlow, { base_flow: 'mech_v1', ...p } as never);

describe('flow.propose from a request', () => {
  it("tailors the base flow with the model's operations, held for a person like any proposal", async () => {
    const from = model.server.requests.length;
    const answer = { operations: [{ op: 'remove_phase', phase_id: 'feasibility' }], reason: 'a known bracket' };
    model.server.enqueue({ text: [JSON.stringify(answer)] });
    const v = await propose({ request: 'A shelf bracket we have made before: skip feasibility.' });
    expect(v).toMatchObject({
      flow_id: 'mech_v1',
      phases: MECH.filter((id) => id !== 'feasibility'),
      status: 'pending',
      note: 'tailored by the flow_generator model local-llm:llama3.1:8b (1 operation)',
    });
    const sent = JSON.stringify(model.server.requests[from]!.body);
    expect(sent).toContain('skip feasibility');
    expect(sent).toContain('remove_phase');
  });

  it('falls back to the base flow with a note when the answer fails the schema or does not apply', async () => {
    model.server.enqueue({ text: ['{"operations": [{"op": "rename_phase", "phase_id": "design"}]}'] });
    const bad = await propose({ request: 'Rename design.' });
    expect(bad.phases).toEqual(MECH);
    expect(bad.note).toMatch(
      /answer of local-llm:llama3\.1:8b was not used: the answer does not match the operation schema/,
    );
    model.server.enqueue({ text: ['{"operations": [{"op": "remove_phase", "phase_id": "firmware"}]}'] });
    const wrong = await propose({ request: 'No firmware.' });
    expect(wrong.phases).toEqual(MECH);
    expect(wrong.note).toMatch(/its operations do not apply: .*no phase firmware/);
    model.server.enqueue({ text: ['I would drop the simulation phase.'] });
    expect((await propose({ request: 'Drop simulation.' })).note).toMatch(
      /the answer is not JSON; the base flow mech_v1/,
    );
  });

  it("a caller's own operations win: the model is not asked", async () => {
    const asked = model.server.requests.length;
    const v = await propose({ request: 'ignored', operations: [{ op: 'remove_phase', phase_id: 'simulation' }] });
    expect(v.phases).toEqual(MECH.slice(0, 5));
    expect(v.note).toBeUndefined();
    expect(model.server.requests.length).toBe(asked);
  });

  it("names who asked on the flow_generator call's ledger row: the caller's principal, never an argument (decision 0113)", async () => {
    const subject = `flow-person-${Date.now()}`;
    const calls = async (who: string) =>
      (await call(t.node.broker, U.usageSummary, { window_hours: 24, subject: who } as never)).usage.calls;
    model.server.enqueue({ text: [JSON.stringify({ operations: [], reason: 'as it is' })] });
    await okData(
      invokeViaRegistry(
        t.node.broker,
        'flow.propose',
        // A principal among the arguments is not the caller: it is dropped.
        { base_flow: 'mech_v1', request: 'The usual bracket.', principal: { subject: 'mallory', client_id: null } },
        { principal: { subject, client_id: 'agent-a', scopes: ['mcp:write'], kind: 'person' } },
      ),
    );
    expect(await calls(subject)).toBe(1);
    expect(await calls('mallory')).toBe(0);
  });
});
