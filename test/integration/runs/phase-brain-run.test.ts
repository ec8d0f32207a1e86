import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { useLocalModel } from '../../support/llm-servers/local-model.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

// A design-flow run whose first phase the phase brain drives (SERVICE_PHASE_BRAIN=model, the project routes
// phase_brain to a local server speaking the OpenAI wire protocol): the runs actor's own executor, the run's service
// caller under its ownership epoch (the twin's run fence), the gates actor's deterministic check of the deliverable.
const t = useTestNode({
  roles: 'gateway,harness,tools,holds,projects,adapter:project,twin,adapter:twin,runs,gates,approvals',
  env: { SERVICE_PHASE_BRAIN: 'model', SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' },
});
const model = useLocalModel(t);

describe('a run through the phase brain', () => {
  it("runs mech_v1's intent phase as a model turn: the intent it recorded is the deliverable and the gate is ready", async () => {
    const project = await model.project('brain run', 'phase_brain');
    const intent = { entity_type: 'intent', name: 'Intent: shelf bracket', statement: 'Hold a 5 kg shelf.' };
    model.server.enqueue(
      { toolCalls: [{ id: 'i1', name: 'twin__record_engineering_entity', args: [JSON.stringify(intent)] }] },
      { text: ['I recorded the intent of the shelf bracket in the twin.'] },
    );
    const run = await call(t.node.broker, R.start, { design_flow: 'mech_v1', project_id: project, goal: 'a bracket' });
    await expect
      .poll(async () => (await call(t.node.broker, R.get, { run_id: run.id })).gate?.phase ?? null, {
        timeout: 30_000,
        interval: 50,
      })
      .toBe('intent');
    const view = await call(t.node.broker, R.get, { run_id: run.id });
    expect(view.gate).toMatchObject({ phase: 'intent', ready: true, findings: [] });
    const phase = view.phases.find((p) => p.id === 'intent')!;
    expect(phase).toMatchObject({ summary: 'I recorded the intent of the shelf bracket in the twin.' });
    expect(phase.deliverables).toEqual([{ type: 'intent', node_id: expect.any(String), ref: expect.any(String) }]);
    const node = await okData(
      callTool(
        t.node.broker,
        'twin.get_node',
        { node_id: phase.deliverables[0]!.node_id },
        {
          project_id: project,
          run_id: run.id,
        },
      ),
    );
    expect(node).toMatchObject({ node_type: 'intent', name: 'Intent: shelf bracket', revision_status: 'draft' });
    await call(t.node.broker, R.cancel, { run_id: run.id, reason: 'test over' });
  });
});
