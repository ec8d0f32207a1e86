import { describe, expect, it } from 'vitest';
import { startFlowNode } from '../../support/flow-node.ts';
import { httpJson, type Json } from '../../support/http-raw.ts';
import { useNode } from '../../support/tools.ts';
import { runApprovalsCli } from '../../../brokers/launcher/approvals.cli.ts';
import { executorFor } from '../../../actors/runs/executors.ts';
import { DEFAULT_HANDLERS } from '../../../actors/runs/handlers/index.ts';

/**
 * Issue 28 point 3 over HTTP: the feasibility phase's hand calculation is a finding of its gate. The real mech_v1
 * handlers run intent to feasibility (they use the twin and the intent compiler only, no engine). A steel 1000 N
 * bracket computes 600 MPa against 125 MPa allowable: the gate is not ready with an error finding naming the remedy,
 * approve answers 409, and approve with an override_reason passes and is recorded (decision 0060).
 */
const node = useNode((env) => startFlowNode({ executor: executorFor(DEFAULT_HANDLERS), env }));
const http = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  httpJson(`${node.url}${path}`, method, body, headers);

async function startRun(goal: string, flow = 'mech_v1'): Promise<string> {
  const project = (await http('POST', '/v1/projects', { name: goal.slice(0, 40) })).json.id as string;
  const run = await http('POST', '/v1/runs', { design_flow: flow, project_id: project, goal, start: true });
  expect(run.status, JSON.stringify(run.json)).toBe(201);
  return run.json.id as string;
}

async function gateOf(runId: string, phase: string): Promise<Json> {
  await expect
    .poll(
      async () => {
        const v = (await http('GET', `/v1/runs/${runId}`)).json;
        if (['failed', 'rejected', 'cancelled'].includes(v.status)) throw new Error(`run ended: ${JSON.stringify(v)}`);
        return v.gate?.phase ?? null;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toBe(phase);
  return (await http('GET', `/v1/runs/${runId}`)).json.gate;
}

async function toFeasibility(goal: string, flow = 'mech_v1'): Promise<{ runId: string; gate: Json }> {
  const runId = await startRun(goal, flow);
  for (const phase of ['intent', 'needs', 'requirements']) {
    await gateOf(runId, phase);
    const ok = await http('POST', `/v1/approvals/gate:${runId}/decision`, { decision: 'approve', reason: 'ok' });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  }
  return { runId, gate: await gateOf(runId, 'feasibility') };
}

describe('feasibility means something (issue 28 point 3)', () => {
  it('stops the steel 1000 N bracket at feasibility with an error finding naming the remedy; approve is 409', async () => {
    const { runId, gate } = await toFeasibility(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 1000 N at the tip, safety factor 2',
    );
    expect(gate.ready).toBe(false);
    const finding = gate.findings.find((f: Json) => f.kind === 'analysis');
    expect(finding, JSON.stringify(gate.findings)).toMatchObject({ severity: 'error', overridable: true });
    expect(finding.message).toMatch(/600 MPa exceeds the allowable 125 MPa/);
    // The remedy the handler computed: h = sqrt(6 P L / (b s)) = 21.9 mm, b = 96 mm, P = 208.3 N.
    expect(finding.message).toMatch(/21\.9 mm/);
    expect(finding.message).toMatch(/96 mm/);
    expect(finding.message).toMatch(/208\.3 N/);

    const item = (await http('GET', `/v1/approvals/gate:${runId}`)).json;
    expect(item.allowed_decisions).not.toContain('approve');
    expect(item.findings).toEqual(gate.findings);
    expect(item.detail.overridable).toBe(true);

    const refused = await http('POST', `/v1/approvals/gate:${runId}/decision`, { decision: 'approve', reason: 'ok' });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/600 MPa exceeds/);
    const viaRun = await http('POST', `/v1/runs/${runId}/approval`, { decision: 'approve', reason: 'ok' });
    expect(viaRun.status).toBe(409);
    const blank = await http('POST', `/v1/approvals/gate:${runId}/decision`, {
      decision: 'approve',
      override_reason: '   ',
    });
    expect(blank.status).toBe(409);
    expect((await http('GET', `/v1/runs/${runId}`)).json.gate.phase).toBe('feasibility');
  }, 120_000);

  it('approve with an override_reason passes the gate and the override is recorded in the decision', async () => {
    const { runId } = await toFeasibility(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 1000 N at the tip, safety factor 2',
    );
    const why = 'the section will be resized in design; proceed to see the FEA';
    const ok = await http(
      'POST',
      `/v1/approvals/gate:${runId}/decision`,
      { decision: 'approve', reason: 'accepted risk', override_reason: why },
      { 'x-service-surface': 'cli' },
    );
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json.decision).toMatchObject({ decision: 'approve', override_reason: why, surface: 'cli' });
    const run = (await http('GET', `/v1/runs/${runId}`)).json;
    const last = run.decisions.at(-1);
    expect(last).toMatchObject({ phase: 'feasibility', decision: 'approve', override_reason: why });
    expect(run.gate?.phase ?? null).not.toBe('feasibility');
  }, 120_000);

  it('service approvals decide --override-reason approves over it from the CLI, recorded with the cli surface', async () => {
    const { runId } = await toFeasibility(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 1000 N at the tip, safety factor 2',
    );
    let out = '';
    const io = { out: (s: string) => void (out += s), err: (s: string) => void (out += s) };
    const id = `gate:${runId}`;
    expect(await runApprovalsCli(['decide', id, 'approve', '--url', node.url], {}, io)).toBe(4); // 409: not ready
    const code = await runApprovalsCli(
      ['decide', id, 'approve', '--override-reason', 'resize in design', '--url', node.url],
      {},
      io,
    );
    expect(code, out).toBe(0);
    const item = (await http('GET', `/v1/approvals/${id}`)).json;
    expect(item.detail.decisions.at(-1)).toMatchObject({
      phase: 'feasibility',
      override_reason: 'resize in design',
      surface: 'cli',
      channel: 'cli',
    });
  }, 120_000);

  it('an inline decision (chat) approves over it with an override_reason, recorded with channel chat', async () => {
    const { runId } = await toFeasibility(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 1000 N at the tip, safety factor 2',
    );
    const inline = `/v1/approvals/gate:${runId}/inline-decision`;
    expect((await http('POST', inline, { decision: 'approve' })).status).toBe(409);
    const ok = await http('POST', inline, { decision: 'approve', override_reason: 'the person said go on' });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json.decision).toMatchObject({
      override_reason: 'the person said go on',
      surface: 'chat',
      channel: 'chat',
      principal: null,
    });
  }, 120_000);

  it('hardware_v1: a stated bracket over its allowable by hand stops feasibility, naming the lighter concept that passes', async () => {
    const request =
      'a wall-mounted environmental sensor: an 80 x 60 x 30 mm enclosure of 0.4 kg held 50 mm off the wall by a 3 mm aluminium bracket, with a 20 g shock load, a 3.3 V microcontroller board with a temperature and humidity sensor, powered from USB, under 25 EUR parts cost';
    const { runId, gate } = await toFeasibility(request, 'hardware_v1');
    expect(gate.ready).toBe(false);
    const finding = gate.findings.find((f: Json) => f.kind === 'analysis');
    expect(finding, JSON.stringify(gate.findings)).toMatchObject({ severity: 'error', overridable: true });
    expect(finding.message).toMatch(/exceeds the allowable .* remedy: the .*4 mm.* bracket/);
    const refused = await http('POST', `/v1/approvals/gate:${runId}/decision`, { decision: 'approve' });
    expect(refused.status).toBe(409);
    // The 2 g request of the reference design passes by hand: no finding, ready.
    const ok = await toFeasibility(request.replace('20 g shock', '2 g shock'), 'hardware_v1');
    expect(ok.gate.ready).toBe(true);
    expect(ok.gate.findings.filter((f: Json) => f.severity === 'error')).toEqual([]);
  }, 120_000);

  it('leaves the 100 N bracket ready at feasibility with no error finding; an override_reason is refused there', async () => {
    const { runId, gate } = await toFeasibility(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2',
    );
    expect(gate.ready).toBe(true);
    expect(gate.findings.filter((f: Json) => f.severity === 'error')).toEqual([]);
    const odd = await http('POST', `/v1/approvals/gate:${runId}/decision`, {
      decision: 'approve',
      override_reason: 'nothing to override',
    });
    expect(odd.status).toBe(422);
  }, 120_000);
});
