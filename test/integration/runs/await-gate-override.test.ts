import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { PhaseExecutor } from '../../../actors/runs/executor.ts';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { recordingExecutor, startFlowNode } from '../../support/flow-node.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';

/**
 * `flow.await_gate` and an overridable gate (decision 0060): a gate not ready only for a hand calculation over its
 * allowable offers approve with an override reason in the person's form; the agent may propose the reason (the
 * tool's `override_reason`, pre-filling the form), and the decision records only the reason the person answers. An
 * approve answered without one is refused as on every other route, and the gate stays open.
 */
const HAND_CALC = 'hand calculation: 600 MPa exceeds the allowable 125 MPa at the root';
const recorder = recordingExecutor();
/** The recording executor, whose feasibility-like intent phase also returns the overridable error finding. */
const executor: PhaseExecutor = async (input) => {
  const out = await recorder(input);
  if (!out.ok || input.phase.id !== 'intent') return out;
  return {
    ...out,
    findings: [{ kind: 'analysis', severity: 'error', message: HAND_CALC, overridable: true }],
  };
};
const node = useNode((env) => startFlowNode({ executor, env }));

const gateOf = (id: string) =>
  expect.poll(async () => (await call(node.handle.broker, R.get, { run_id: id })).gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });

describe('flow.await_gate over an overridable gate', () => {
  it('offers approve with an override reason, refuses approve without one, records the reason the person gave', async () => {
    const run = await okData(
      callTool(node.handle.broker, 'flow.start_run', { design_flow: 'mech_v1', project_id: 'p-override', goal: 'x' }),
    );
    await gateOf(run.id).toBe('intent');
    const open = await call(node.handle.broker, R.get, { run_id: run.id });
    expect(open.gate).toMatchObject({ ready: false, overridable: true });
    expect(open.gate!.allowed_decisions).not.toContain('approve');

    const asked: { message: string; requestedSchema: Record<string, any> }[] = [];
    let answer: Record<string, unknown> = { decision: 'approve', reason: 'looks fine' };
    const client = new Client({ name: 'override-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params as (typeof asked)[number]);
      return { action: 'accept', content: answer };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`)));
    try {
      const args = { run_id: run.id, wait_seconds: 30, override_reason: 'the FEA decides, not the hand calculation' };
      // Hostile case first: approve answered without an override reason is refused; nothing is decided.
      const refused = await client.callTool({ name: 'flow.await_gate', arguments: args });
      expect(refused.isError, JSON.stringify(refused.content)).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/600 MPa exceeds/);
      expect(asked[0].requestedSchema.properties.decision.enum).toContain('approve');
      expect(asked[0].requestedSchema.properties.override_reason).toMatchObject({
        type: 'string',
        default: 'the FEA decides, not the hand calculation',
      });
      expect(asked[0].message).toMatch(/give an override reason/);
      expect((await call(node.handle.broker, R.get, { run_id: run.id })).gate?.phase).toBe('intent');

      answer = { decision: 'approve', reason: 'go on', override_reason: 'the person accepts: the FEA will decide' };
      const decided = await client.callTool({ name: 'flow.await_gate', arguments: args });
      expect(decided.isError, JSON.stringify(decided.content)).toBeFalsy();
      expect(decided.structuredContent).toMatchObject({
        status: 'decided',
        decision: { decision: 'approve', override_reason: 'the person accepts: the FEA will decide', surface: 'mcp' },
      });
      const after = await call(node.handle.broker, R.get, { run_id: run.id });
      expect(after.decisions[0]).toMatchObject({
        phase: 'intent',
        decision: 'approve',
        override_reason: 'the person accepts: the FEA will decide',
        surface: 'mcp',
      });
    } finally {
      await client.close();
    }
  });

  it('refuses an override_reason argument over the limit as bad params (the decision body limit, one place)', async () => {
    const res = await callTool(node.handle.broker, 'flow.await_gate', {
      run_id: 'run_x',
      override_reason: 'x'.repeat(2001),
    });
    expect(res).toMatchObject({ status: 'error', error: { type: 'INVALID_ARGUMENTS' } });
  });
});
