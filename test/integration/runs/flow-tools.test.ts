import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { useFlowNode } from '../../support/flow-node.ts';
import { callTool, okData, toolError } from '../../support/tools.ts';

const node = useFlowNode();

const remote = { kind: 'remote' as const, transport: 'http' as const, session_id: 's-remote' };
const startRun = async (project: string) =>
  okData(
    callTool(node.handle.broker, 'flow.start_run', {
      design_flow: 'mech_v1',
      project_id: project,
      goal: 'a steel bracket',
    }),
  );
const gateOf = (id: string) =>
  expect.poll(async () => (await call(node.handle.broker, R.get, { run_id: id })).gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });

describe('the flow tools', () => {
  it('answers the read tools identically to in-process and remote callers', async () => {
    const run = await startRun('p-tools-read');
    await gateOf(run.id).toBe('intent');
    const reads: [string, Record<string, unknown>][] = [
      ['flow.list', { project_id: 'p-tools-read' }],
      ['flow.status', { run_id: run.id }],
      ['flow.lifecycle', { run_id: run.id }],
      ['flow.verify_completion', { run_id: run.id }],
      ['flow.capabilities', { flow: 'mech_v1' }],
      ['flow.compile_intent', { request: 'an aluminium plate 100 x 50 x 5 mm, safety factor 3' }],
    ];
    for (const [tool, args] of reads) {
      const local = await okData(callTool(node.handle.broker, tool, args));
      expect(await okData(callTool(node.handle.broker, tool, args, remote)), tool).toEqual(local);
    }
    const list = await okData(callTool(node.handle.broker, 'flow.list', { project_id: 'p-tools-read' }));
    expect(list.flows.map((f: { id: string }) => f.id)).toEqual(['hardware_v1', 'mech_v1']);
    expect(list.runs).toEqual([expect.objectContaining({ id: run.id, gate: 'intent' })]);
    const status = await okData(callTool(node.handle.broker, 'flow.status', { run_id: run.id }));
    expect(status).toMatchObject({
      mode: 'linear',
      open_gate: { phase: 'intent', allowed_decisions: expect.arrayContaining(['approve']) },
      usage: { calls: 0, cost_usd: null },
    });
    const verify = await okData(callTool(node.handle.broker, 'flow.verify_completion', { run_id: run.id }));
    expect(verify).toMatchObject({ verdict: 'IN_PROGRESS', verified: false });
    expect((await toolError(callTool(node.handle.broker, 'flow.lifecycle', { run_id: 'run_nope' }))).message).toBe(
      'run run_nope not found',
    );
  });

  it('refuses every flow tool to the design-flow worker itself', async () => {
    const run = await startRun('p-tools-worker');
    const worker = {
      kind: 'service' as const,
      transport: 'internal' as const,
      run_id: run.id,
      phase: 'intent',
      client: 'design-flow',
    };
    const calls: [string, Record<string, unknown>][] = [
      ['flow.list', {}],
      ['flow.status', { run_id: run.id }],
      ['flow.compile_intent', { request: 'a bracket' }],
      ['flow.capabilities', { flow: 'mech_v1' }],
      ['flow.lifecycle', { run_id: run.id }],
      ['flow.verify_completion', { run_id: run.id }],
      ['flow.propose', { base_flow: 'mech_v1' }],
      ['flow.start_run', { design_flow: 'mech_v1', goal: 'another' }],
      ['flow.patch', { action: 'apply', run_id: run.id, version: 1 }],
      ['flow.await_gate', { run_id: run.id }],
    ];
    for (const [tool, args] of calls) {
      expect(await callTool(node.handle.broker, tool, args, worker), tool).toEqual({
        status: 'error',
        tool_id: tool,
        error: {
          type: 'REFUSED',
          message: 'the design-flow worker cannot call flow.* tools',
          details: 'the design-flow worker cannot call flow.* tools',
        },
        duration_ms: 0,
      });
    }
  });

  it('holds start_run for a remote caller; propose and patch are held downstream until a person approves', async () => {
    const held = await callTool(node.handle.broker, 'flow.start_run', { design_flow: 'mech_v1', goal: 'x' }, remote);
    expect(held).toMatchObject({ error: { type: 'APPROVAL_REQUIRED', details: { outcome: 'not_configured' } } });

    const proposal = await okData(
      callTool(
        node.handle.broker,
        'flow.propose',
        { base_flow: 'mech_v1', operations: [{ op: 'remove_phase', phase_id: 'feasibility' }], reason: 'simple part' },
        remote,
      ),
    );
    expect(proposal).toMatchObject({
      flow_id: 'mech_v1',
      status: 'pending',
      approval: { kind: 'flow_version' },
      phases: ['intent', 'needs', 'requirements', 'design', 'simulation'],
    });
    const refused = await toolError(
      callTool(node.handle.broker, 'flow.start_run', { version_id: proposal.version_id, goal: 'a bracket' }),
    );
    expect(refused.message).toMatch(/is not approved yet/);
    const db = await node.handle.infra.db();
    await db.query(`UPDATE flow_proposals SET status = 'approved' WHERE version_id = $1`, [proposal.version_id]);
    const onVersion = await okData(
      callTool(node.handle.broker, 'flow.start_run', {
        version_id: proposal.version_id,
        goal: 'a bracket',
        project_id: 'p-tools-version',
      }),
    );
    expect(onVersion).toMatchObject({
      version_id: proposal.version_id,
      project_id: 'p-tools-version',
      status: 'running',
    });
    expect(onVersion.phases.map((p: { id: string }) => p.id)).toEqual(proposal.phases);

    const run = await startRun('p-tools-patch');
    const patch = await okData(
      callTool(
        node.handle.broker,
        'flow.patch',
        {
          action: 'propose',
          run_id: run.id,
          operations: [{ op: 'modify_phase', phase_id: 'design', changes: { title: 'Bracket design' } }],
        },
        remote,
      ),
    );
    expect(patch).toMatchObject({ version: 1, status: 'pending', approval: { kind: 'flow_patch', status: 'pending' } });
    const notApproved = await toolError(
      callTool(node.handle.broker, 'flow.patch', { action: 'apply', run_id: run.id, version: 1 }, remote),
    );
    expect(notApproved.message).toMatch(/^patch 1 of run .* is not approved/);
    const bad = await callTool(node.handle.broker, 'flow.patch', {
      action: 'propose',
      run_id: run.id,
      operations: [{ op: 'modify_phase', phase_id: 'design', changes: { condition: 'route = full' } }],
    });
    expect(bad).toMatchObject({
      error: {
        type: 'INVALID_ARGUMENTS',
        details: {
          validation_errors: [
            { message: expect.stringMatching(/^phase design: condition does not parse at position 7/) },
          ],
        },
      },
    });
    expect(await callTool(node.handle.broker, 'flow.patch', { action: 'apply', run_id: run.id })).toMatchObject({
      error: { type: 'INVALID_ARGUMENTS' },
    });
  });

  it('await_gate answers awaiting_gate when the client cannot show a prompt, and decides through an elicitation when it can', async () => {
    const run = await startRun('p-tools-gate');
    const none = await okData(callTool(node.handle.broker, 'flow.await_gate', { run_id: run.id, wait_seconds: 30 }));
    expect(none).toMatchObject({ status: 'awaiting_gate', gate: { phase: 'intent', ready: true } });
    expect(none.note).toMatch(/cannot show a prompt .*Approvals page/);

    const asked: { message: string; requestedSchema: Record<string, any> }[] = [];
    const client = new Client({ name: 'gate-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params as (typeof asked)[number]);
      return { action: 'accept', content: { decision: 'approve', reason: 'the intent is right' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`)));
    try {
      const res = await client.callTool({ name: 'flow.await_gate', arguments: { run_id: run.id, wait_seconds: 30 } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({
        status: 'decided',
        decision: { decision: 'approve', approver: 'local:elicitation', surface: 'mcp' },
      });
      expect(asked[0].message).toMatch(/waits at the gate "Intent sign-off" of phase intent/);
      expect(asked[0].requestedSchema.properties.decision.enum).toEqual(['approve', 'reject', 'retry']);
      const after = await call(node.handle.broker, R.get, { run_id: run.id });
      expect(after.decisions[0]).toMatchObject({
        phase: 'intent',
        decision: 'approve',
        approver: 'local:elicitation',
        approver_verified: false,
        surface: 'mcp',
      });

      asked.length = 0;
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
      const declined = await client.callTool({
        name: 'flow.await_gate',
        arguments: { run_id: run.id, wait_seconds: 30 },
      });
      expect(declined.structuredContent).toMatchObject({
        status: 'awaiting_gate',
        gate: { phase: 'needs' },
        note: expect.stringMatching(/^the person chose decline; the gate stays open/),
      });
    } finally {
      await client.close();
    }
  });

  it('await_gate over MCP from a client that declared no elicitation: awaiting_gate at once, nothing asked', async () => {
    const run = await startRun('p-tools-no-elicit');
    const client = new Client({ name: 'no-elicitation', version: '1.0.0' }, { capabilities: {} });
    const asked: unknown[] = [];
    client.fallbackRequestHandler = async (req) => {
      asked.push(req);
      return {};
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${node.url}/mcp`)));
    try {
      const res = await client.callTool({ name: 'flow.await_gate', arguments: { run_id: run.id, wait_seconds: 30 } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({
        status: 'awaiting_gate',
        approval_id: `gate:${run.id}`,
        gate: { phase: 'intent' },
        note: expect.stringContaining(`declared no elicitation); decide it on the Approvals page (gate:${run.id})`),
      });
      expect(asked).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
