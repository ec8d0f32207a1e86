// The mech handlers compile the run's goal through the flows actor's action (flows.compileIntent), never by importing
// the compiler: a bus that does not host the flows actor leaves the intent phase without an intent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createFlowsService } from '../../../actors/flows/flows.service.ts';
import type { PhaseInput } from '../../../actors/runs/executor.ts';
import { intentPhase } from '../../../actors/runs/handlers/mech/early-phases.ts';
import type { PhaseDef } from '../../../contracts/flow-defs.ts';
import { startActors } from '../../support/actors.ts';

const GOAL = 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2';

let handle: BrokerHandle;
beforeAll(async () => {
  handle = await startActors([createFlowsService]);
});
afterAll(async () => {
  await handle?.broker.stop();
});

/** A phase input whose tool calls are recorded and whose bus calls go through `bus` (names recorded too). */
function inputOf(bus: PhaseInput['bus'], request: Record<string, unknown>) {
  const tools: { name: string; args: Record<string, unknown> }[] = [];
  const input: PhaseInput = {
    run_id: 'run-intent',
    project_id: 'p-intent',
    flow_id: 'mech_v1',
    phase: { id: 'intent' } as PhaseDef,
    attempt: 1,
    notes: [],
    request,
    facts: {},
    prior: {},
    signal: new AbortController().signal,
    bus,
    callTool: async (name, args) => {
      tools.push({ name, args });
      return {
        status: 'success' as const,
        tool_id: name,
        data: { node_id: 'n1', item_ref: 'INT-X@1', item_key: 'INT-X' },
        output_files: [],
        duration_ms: 1,
      };
    },
  };
  return { input, tools };
}

describe('the mech intent phase', () => {
  it('records the intent the flows actor compiled from the goal', async () => {
    const asked: string[] = [];
    const bus = {
      call: (name: string, params?: unknown) => (asked.push(name), handle.broker.call(name, params)),
    } as PhaseInput['bus'];
    const { input, tools } = inputOf(bus, { goal: GOAL });
    const out = await intentPhase(input);
    expect(out).toMatchObject({ ok: true, summary: 'intent recorded as INT-X@1: cantilever bracket' });
    expect(asked).toEqual(['flows.compileIntent']);
    const compiled = await handle.broker.call('flows.compileIntent', { request: GOAL });
    expect(tools).toEqual([
      {
        name: 'twin.record_engineering_entity',
        args: expect.objectContaining({ entity_type: 'intent', properties: { intent: compiled } }),
      },
    ]);
  });

  it('fails as a data failure when the request states no goal, calling nothing', async () => {
    const asked: string[] = [];
    const bus = {
      call: (name: string) => (asked.push(name), Promise.reject(new Error('not called'))),
    } as unknown as PhaseInput['bus'];
    const { input, tools } = inputOf(bus, {});
    expect(await intentPhase(input)).toEqual({
      ok: false,
      kind: 'data',
      message: 'the run request states no goal to compile into an intent',
    });
    expect(asked).toEqual([]);
    expect(tools).toEqual([]);
  });
});
