import crypto from 'node:crypto';
import type { ServiceBroker } from 'moleculer';
import { serviceCaller, type PhaseInput } from '../../actors/runs/executor.ts';
import type { Deliverable } from '../../actors/runs/run.types.ts';
import { call } from '../../brokers/actions.ts';
import type { FlowDef } from '../../contracts/flow-defs.ts';
import { ToolsActions } from '../../contracts/actions/tools.actions.ts';

/**
 * The input the runs actor builds for one attempt of a phase, run by hand in a test: tool calls go through the node's
 * registry as the run's service caller (with the bus timeout the runs actor gives them: the tool's own plus 10 s), and
 * `called` records the tools in order.
 */
export function phaseInput(
  broker: ServiceBroker,
  flow: FlowDef,
  opts: { phase: string; goal: string; projectId: string; runId?: string; prior?: Record<string, Deliverable[]> },
): { input: PhaseInput; called: string[] } {
  const called: string[] = [];
  const def = flow.phases.find((p) => p.id === opts.phase);
  if (!def) throw new Error(`${flow.id} has no phase ${opts.phase}`);
  const input: PhaseInput = {
    run_id: opts.runId ?? `run-${crypto.randomUUID()}`,
    project_id: opts.projectId,
    flow_id: flow.id,
    phase: def,
    attempt: 1,
    notes: [],
    request: { goal: opts.goal },
    facts: {},
    prior: opts.prior ?? {},
    bus: broker,
    signal: new AbortController().signal,
    callTool: (name, args, timeout = 600) => {
      called.push(name);
      return call(
        broker,
        ToolsActions.call,
        {
          name,
          arguments: args,
          timeout_seconds: timeout,
          call_id: `${input.run_id}:${opts.phase}:${crypto.randomUUID()}`,
          caller: serviceCaller(input),
        },
        { timeout: timeout * 1000 + 10_000 },
      );
    },
  };
  return { input, called };
}
