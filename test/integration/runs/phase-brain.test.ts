import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import type { PhaseDef } from '../../../contracts/flow-defs.ts';
import { serviceCaller, type PhaseExecutor, type PhaseInput } from '../../../actors/runs/executor.ts';
import { executorFor } from '../../../actors/runs/executors.ts';
import { brainRoute } from '../../../actors/runs/phase-route.ts';
import { HarnessConfigActions as HC } from '../../../contracts/actions/harness-config.actions.ts';
import { HARDWARE_V1 } from '../../../actors/runs/flows/hardware-v1.ts';
import { LOCAL_MODEL, LOCAL_ROUTE, useLocalModel } from '../../support/llm-servers/local-model.ts';
import { useTestNode } from '../../support/node.ts';
import { callTool, okData } from '../../support/tools.ts';

// A model-driven phase (the phase brain) on a real node: harness, registry, twin and its adapter, with a local server
// speaking the OpenAI wire protocol as the scripted model. The phase input is what the runs actor builds (the run's
// service caller); the executor is the one the runs actor uses. Routes are per project, so one project has a
// phase_brain route and another has none.
const t = useTestNode({
  roles: 'gateway,harness,tools,holds,projects,adapter:project,twin,adapter:twin',
  env: { SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' }, // the local model server
});
const model = useLocalModel(t);
const firmware = HARDWARE_V1.phases.find((p) => p.id === 'firmware')!;
const USAGE = { prompt_tokens: 100, completion_tokens: 10 };
const toolCall = (id: string, name: string, args: object) => ({ id, name, args: [JSON.stringify(args)] });

/** A project of its own; `routed`: with a phase_brain route to the local model. */
const project = (routed: boolean) => model.project('brain', routed ? 'phase_brain' : undefined);

/** The runs actor's phase input for one attempt (service caller scoped to the run, tools through the registry). */
function inputFor(projectId: string, phase: PhaseDef = firmware): PhaseInput {
  const input: PhaseInput = {
    run_id: `run_${crypto.randomUUID()}`,
    project_id: projectId,
    flow_id: 'hardware_v1',
    phase,
    attempt: 1,
    notes: [],
    request: { goal: 'a wall-mounted environmental sensor with a 3.3 V microcontroller' },
    facts: {},
    prior: { architecture: [{ type: 'design_decision', node_id: 'n-arch', ref: undefined }] },
    bus: t.node.broker,
    signal: new AbortController().signal,
    callTool: (name, args, timeout = 600) =>
      call(t.node.broker, ToolsActions.call, {
        name,
        arguments: args,
        timeout_seconds: timeout,
        call_id: `${input.run_id}:${phase.id}:${crypto.randomUUID()}`,
        caller: serviceCaller(input),
      }),
  };
  input.caller = serviceCaller(input);
  return input;
}

const deterministic: PhaseExecutor = async () => ({ ok: true, summary: 'handler ran', deliverables: [] });

describe('the phase brain', () => {
  it('runs a phase without a handler as one model turn: the decision its tool call recorded is the deliverable', async () => {
    const input = inputFor(await project(true), { ...firmware, disciplines: ['firmware'] });
    const from = model.server.requests.length;
    model.server.enqueue(
      {
        toolCalls: [
          toolCall('d1', 'twin__record_decision', { title: 'Firmware: FreeRTOS, 100 Hz loop', decision: 'go' }),
        ],
        usage: USAGE,
      },
      { text: ['I recorded the firmware decision in the twin.'], usage: USAGE },
    );
    const out = await executorFor({})(input);
    if (!out.ok) throw new Error(`${out.kind}: ${out.message}`);
    expect(out.deliverables).toHaveLength(1);
    expect(out.deliverables[0]).toMatchObject({ type: 'design_decision' });
    const node = await okData(
      callTool(
        t.node.broker,
        'twin.get_node',
        { node_id: out.deliverables[0]!.node_id },
        {
          project_id: input.project_id!,
          run_id: input.run_id,
        },
      ),
    );
    expect(node).toMatchObject({ node_type: 'design_decision', name: 'Firmware: FreeRTOS, 100 Hz loop' });

    // The request: routed as phase_brain (the discipline's role falls back to it), the phase prompt, the phase tools.
    const body = model.server.requests[from]!.body as {
      model: string;
      messages: { content: string }[];
      tools: { function: { name: string } }[];
    };
    expect(body.model).toBe(LOCAL_MODEL);
    expect(body.messages[0]!.content).toContain('Control loop, tasks, pin map and drivers.');
    expect(body.messages[0]!.content).toContain('- design_decision (recorded with twin.record_decision)');
    expect(body.messages[0]!.content).toContain('pin map recorded');
    expect(body.messages[0]!.content).toContain('architecture: design_decision node n-arch');
    const names = body.tools.map((x) => x.function.name);
    expect(names).toEqual(expect.arrayContaining(['twin__record_decision', 'twin__record_document']));
    expect(names).not.toContain('flow__start_run');
  });

  it('routes a phase of several disciplines by the first whose role has a route of its own, else by its first', async () => {
    const phase = { ...firmware, disciplines: ['mechanical', 'firmware'] };
    const id = await model.project('brain roles');
    const routes = (r: Record<string, string>) =>
      call(t.node.broker, HC.setProjectRoutes, { project_id: id, routes: r });
    const route = () => brainRoute(t.node.broker, phase, { project_id: id, run_id: `run_${crypto.randomUUID()}` });
    await routes({ phase_brain: 'local-llm:base-model', 'phase_brain:firmware': LOCAL_ROUTE });
    expect(await route()).toMatchObject({ ok: true, role: 'phase_brain:firmware', route: { model: LOCAL_MODEL } });
    await routes({ phase_brain: LOCAL_ROUTE });
    expect(await route()).toMatchObject({ ok: true, role: 'phase_brain:mechanical', route: { model: LOCAL_MODEL } });
    await routes({ 'phase_brain:firmware': LOCAL_ROUTE });
    expect(await route()).toMatchObject({ ok: true, role: 'phase_brain:firmware' });
  });

  it('fails a reply that claims work no tool call did as ungrounded (reasoning)', async () => {
    model.server.enqueue({ text: ['I recorded the firmware decision in the twin.'], usage: USAGE });
    const out = await executorFor({})(inputFor(await project(true)));
    expect(out).toMatchObject({ ok: false, kind: 'reasoning', message: expect.stringMatching(/ungrounded/) });
  });

  it('fails an honest reply without the required deliverable as a design failure naming it', async () => {
    model.server.enqueue({ text: ['The pin map depends on a board that does not exist yet.'], usage: USAGE });
    const out = await executorFor({})(inputFor(await project(true)));
    expect(out).toMatchObject({
      ok: false,
      kind: 'design',
      message: expect.stringMatching(/produced no design_decision/),
    });
  });

  it('without a route: the handler runs (a flow model or SERVICE_PHASE_BRAIN=model); no handler fails naming the route', async () => {
    const id = await project(false);
    const asked = model.server.requests.length;
    const table = { hardware_v1: { firmware: deterministic } };
    expect(await executorFor(table, { brain: 'model' })(inputFor(id))).toMatchObject({
      ok: true,
      summary: 'handler ran',
    });
    const fallback = await executorFor(table)(inputFor(id, { ...firmware, model: 'unknown-provider:x' }));
    expect(fallback).toMatchObject({ ok: true, summary: 'handler ran' });
    const none = await executorFor({})(inputFor(id));
    expect(none).toMatchObject({ ok: false, kind: 'environment' });
    expect(none.ok || none.message).toMatch(/needs a model.*SERVICE_ROUTE_PHASE_BRAIN=<provider>:<model>/);
    expect(model.server.requests.length).toBe(asked); // no model was called
  });

  it('with a route and SERVICE_PHASE_BRAIN=model, the brain runs instead of the handler', async () => {
    model.server.enqueue({ text: ['Nothing to record.'], usage: USAGE });
    const table = { hardware_v1: { firmware: deterministic } };
    const out = await executorFor(table, { brain: 'model' })(inputFor(await project(true)));
    expect(out).toMatchObject({ ok: false, kind: 'design' });
  });
});
