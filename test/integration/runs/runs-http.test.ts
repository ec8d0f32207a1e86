import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { HarnessUsageActions } from '../../../contracts/actions/harness-usage.actions.ts';
import { STEP_BASE64, useFlowNode, type RecordedDesign } from '../../support/flow-node.ts';
import type { Json } from '../../support/http-raw.ts';
import { callTool, okData } from '../../support/tools.ts';

const node = useFlowNode();
const { http } = node;

const MECH = ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation'];
const start = async (project: string, design: RecordedDesign = {}) => {
  const r = await http('POST', '/v1/runs', {
    design_flow: 'mech_v1',
    project_id: project,
    goal: 'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip',
    context: { design },
  });
  expect(r.status).toBe(201);
  return r.json;
};
const gateOf = (id: string) =>
  expect.poll(async () => (await http('GET', `/v1/runs/${id}`)).json.gate?.phase ?? null, {
    timeout: 15_000,
    interval: 50,
  });
async function approveThrough(id: string, phases: string[]) {
  for (const phase of phases) {
    await gateOf(id).toBe(phase);
    const r = await http('POST', `/v1/runs/${id}/approval`, { decision: 'approve' });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }
}

describe('runs over HTTP', () => {
  it('starts a run (an unknown design_flow is 422 listing the valid ones) and serves it with usage, flow state and the project list', async () => {
    const bad = await http('POST', '/v1/runs', { design_flow: 'rocket_v9', goal: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { valid: ['hardware_v1', 'mech_v1'] } });
    expect(bad.json.error.message).toBe('design_flow "rocket_v9" is not a design flow; valid: hardware_v1, mech_v1');
    expect((await http('POST', '/v1/runs', { design_flow: 'mech_v1', goal: 'x', start: false })).status).toBe(422);

    const run = await start('p-start');
    expect(run).toMatchObject({ project_id: 'p-start', design_flow: 'mech_v1', status: 'running' });
    const one = await http('GET', `/v1/runs/${run.id}`);
    expect(one.json.usage).toMatchObject({
      calls: 0,
      cost_usd: null,
      tokens: { prompt: 0, completion: 0, cached_input: 0 },
      by_phase: {},
    });
    const list = await http('GET', '/v1/runs?project_id=p-start');
    expect(list.json).toMatchObject({ total: 1, runs: [{ id: run.id, project_id: 'p-start' }] });
    expect((await http('GET', '/v1/runs?project_id=nobody')).json.total).toBe(0);
    const fs = await http('GET', `/v1/runs/${run.id}/flow-state`);
    expect(fs.json).toMatchObject({ mode: 'linear', skipped: [], usage: { calls: 0, cost_usd: null } });
    expect(fs.json.phases.map((p: Json) => [p.id, p.depends_on, p.usage.cost_usd])).toEqual(
      MECH.map((id, i) => [id, i ? [MECH[i - 1]] : [], null]),
    );
    expect(['running', 'awaiting_gate']).toContain(fs.json.phases[0].status);

    expect((await http('GET', '/v1/runs/run_nope')).status).toBe(404);
    expect((await http('GET', '/v1/runs/run_nope/lifecycle')).status).toBe(404);
    const usage = await http('GET', '/v1/runs/usage/summary?window_hours=24');
    expect(usage.json).toMatchObject({ window_hours: 24, usage: { calls: 0, cost_usd: null } });
    expect(usage.json.runs).toBeGreaterThanOrEqual(1);
    expect((await http('GET', '/v1/runs/usage/summary?window_hours=0')).status).toBe(422);

    // Model calls of the run, as the harness's ledger has them, show on the run and on their phase.
    for (const [i, phase] of ['intent', 'intent', 'needs'].entries()) {
      await call(node.handle.broker, HarnessUsageActions.recordCall, {
        id: `run-call-${run.id}-${i}`,
        at: new Date().toISOString(),
        provider: 'openai',
        model: 'gpt-4.1',
        role: 'phase_brain',
        phase,
        run_id: run.id,
        project_id: 'p-start',
        credential_id: 'cred-a',
        prompt_tokens: 1_000,
        completion_tokens: 100,
        cached_input_tokens: 0,
        usage_reported: true,
        outcome: 'ok',
        failure_class: null,
        latency_ms: 10,
      });
    }
    const used = await http('GET', `/v1/runs/${run.id}`);
    expect(used.json.usage).toMatchObject({ calls: 3, tokens: { prompt: 3_000, completion: 300 } });
    expect(used.json.usage.cost_usd).toBeGreaterThan(0);
    const perPhase = (await http('GET', `/v1/runs/${run.id}/flow-state`)).json;
    expect(perPhase.usage.calls).toBe(3);
    expect(perPhase.phases.map((p: Json) => p.usage.calls)).toEqual([2, 1, 0, 0, 0, 0]);
  });

  it('drives mech_v1 to COMPLETED_VERIFIED through six approvals; a repeated Idempotency-Key is applied once; changes name the baselines', async () => {
    const run = await start('p-verified');
    await gateOf(run.id).toBe('intent');
    const key = { 'idempotency-key': `k-${run.id}` };
    expect((await http('POST', `/v1/runs/${run.id}/approval`, { decision: 'approve' }, key)).status).toBe(200);
    const again = await http('POST', `/v1/runs/${run.id}/approval`, { decision: 'approve' }, key);
    expect(again.json.decisions.filter((d: Json) => d.idem === key['idempotency-key'])).toHaveLength(1);
    expect(again.json.decisions[0]).toMatchObject({
      approver: 'local:dashboard',
      approver_verified: false,
      surface: 'unknown',
    });
    await approveThrough(run.id, MECH.slice(1));

    const life = await http('GET', `/v1/runs/${run.id}/lifecycle`);
    expect(life.json).toMatchObject({ status: 'completed', verdict: 'COMPLETED_VERIFIED', stale: [], limits: [] });
    expect(life.json.requirements).toEqual([
      expect.objectContaining({ metric: 'max_von_mises_mpa', status: 'pass', value: 60, mandatory: true }),
    ]);
    expect(life.json.phases.map((p: Json) => p.objective_status)).toEqual(MECH.map(() => 'COMPLETED'));
    expect(life.json.nextStep).toMatch(/^Nothing to do/);

    const changes = await http('GET', `/v1/twin/runs/${run.id}/changes`);
    expect(changes.json.gates.map((g: Json) => [g.phase, g.outcome, typeof g.baseline_id])).toEqual(
      MECH.map((p) => [p, 'approved', 'string']),
    );
    const cad = changes.json.revisions.find((r: Json) => r.item_type === 'cad_model');
    expect(cad).toMatchObject({
      status: 'approved',
      outcome: 'approved',
      phase: 'design',
      superseded: false,
      baseline_id: changes.json.gates[4].baseline_id,
    });
    expect(changes.json.gates[4].revisions).toContain(cad.ref);
    expect((await http('GET', '/v1/twin/runs/run_nope/changes')).status).toBe(404);
  });

  it('is PARTIALLY_COMPLETED when a requirement fails, and STALE once a later revision supersedes what the run approved', async () => {
    // The V&V gate enforces constraints, so a run completes only with its requirements met; a requirement fails
    // afterwards when the current evidence changes: a heavier geometry revision committed outside the run.
    const failing = await start('p-partial', {
      constraints: [{ metric: 'mass_kg', limit: 0.25, unit: 'kg' }],
      massKg: 0.2,
    });
    await approveThrough(failing.id, MECH);
    expect((await http('GET', `/v1/runs/${failing.id}/lifecycle`)).json.verdict).toBe('COMPLETED_VERIFIED');
    const heavy = (await http('GET', `/v1/twin/runs/${failing.id}/changes`)).json.revisions.find(
      (r: Json) => r.item_type === 'cad_model',
    );
    await okData(
      callTool(node.handle.broker, 'twin.commit_geometry', {
        project_id: 'p-partial',
        name: 'Bracket',
        item_key: heavy.key,
        step_base64: STEP_BASE64,
        properties: { mass_kg: 0.31 },
      }),
    );
    const v = (await http('GET', `/v1/runs/${failing.id}/lifecycle`)).json;
    expect(v.verdict).toBe('PARTIALLY_COMPLETED');
    expect(v.requirements).toEqual([
      expect.objectContaining({
        metric: 'mass_kg',
        status: 'fail',
        value: 0.31,
        evidence: expect.objectContaining({ kind: 'geometry' }),
      }),
    ]);

    const ok = await start('p-stale');
    await approveThrough(ok.id, MECH);
    expect((await http('GET', `/v1/runs/${ok.id}/lifecycle`)).json.verdict).toBe('COMPLETED_VERIFIED');
    const cad = (await http('GET', `/v1/twin/runs/${ok.id}/changes`)).json.revisions.find(
      (r: Json) => r.item_type === 'cad_model',
    );
    await okData(
      callTool(node.handle.broker, 'twin.commit_geometry', {
        project_id: 'p-stale',
        name: 'Bracket',
        item_key: cad.key,
        step_base64: STEP_BASE64,
        change_reason: 'thicker web',
      }),
    );
    const stale = (await http('GET', `/v1/runs/${ok.id}/lifecycle`)).json;
    expect(stale.verdict).toBe('PARTIALLY_COMPLETED');
    expect(stale.stale).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ref: cad.ref,
          phase: 'design',
          reason: `${cad.ref} was superseded by ${cad.key}@${cad.revision + 1} (thicker web)`,
        }),
      ]),
    );
    expect(stale.phases.find((p: Json) => p.id === 'design')).toMatchObject({
      validity: 'STALE',
      objective_status: 'STALE',
    });
    expect(stale.phases.find((p: Json) => p.id === 'simulation').validity).toMatch(/^(STALE|POTENTIALLY_INVALID)$/);
    expect(stale.requirements[0].status).toBe('no_data');
    expect(
      (await http('GET', `/v1/twin/runs/${ok.id}/changes`)).json.revisions.find(
        (r: Json) => r.item_type === 'cad_model',
      ).superseded,
    ).toBe(true);
  });

  it('refuses bad gate decisions with the spec statuses and reports a not-ready gate as BLOCKED', async () => {
    const run = await start('p-bad', { silent: ['intent'] });
    await expect
      .poll(async () => (await http('GET', `/v1/runs/${run.id}`)).json.gate?.ready ?? null, { timeout: 15_000 })
      .toBe(false);
    const post = (body: unknown) => http('POST', `/v1/runs/${run.id}/approval`, body);
    expect((await http('POST', '/v1/runs/run_nope/approval', { decision: 'reject', reason: 'x' })).status).toBe(404);
    expect((await post({ decision: 'reject', reason: 'r'.repeat(2001) })).status).toBe(422);
    expect((await post({ decision: 'rework', reason: 'x', to_phase: 'p'.repeat(201) })).status).toBe(422);
    const notTarget = await post({ decision: 'rework', reason: 'again', to_phase: 'simulation' });
    expect(notTarget.status).toBe(422);
    expect(notTarget.json.error.message).toMatch(/not a rework target of intent/);
    expect((await post({ decision: 'reject' })).status).toBe(422);
    expect((await post({ decision: 'maybe' })).status).toBe(422);
    const notReady = await post({ decision: 'approve' });
    expect(notReady.status).toBe(409);
    expect(notReady.json.error.message).toMatch(/not ready/);
    const life = (await http('GET', `/v1/runs/${run.id}/lifecycle`)).json;
    expect(life.verdict).toBe('BLOCKED');
    expect(life.nextStep).toMatch(/not ready .*retry the phase or reject/);
    expect((await http('GET', `/v1/twin/runs/${run.id}/changes`)).json.gates).toEqual([
      expect.objectContaining({ phase: 'intent', outcome: 'waiting', decision: null }),
    ]);
    expect((await post({ decision: 'reject', reason: 'not what we need' })).status).toBe(200);
    expect((await post({ decision: 'reject', reason: 'again' })).status).toBe(409);
    expect((await http('GET', `/v1/runs/${run.id}/lifecycle`)).json.verdict).toBe('FAILED');
  });
});
