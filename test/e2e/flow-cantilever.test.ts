import { describe, expect, it } from 'vitest';
import { useTestNode } from '../support/node.ts';

/**
 * The done-when run of the design flows: a mech_v1 run for a steel cantilever bracket goes from intent to
 * COMPLETED_VERIFIED through six approved gates on the real engines (CAD kernel, gmsh, CalculiX), over HTTP; the same
 * request with 1000 N stops at feasibility (the hand calculation, approved over with an override_reason) and then at
 * the simulation gate with an `analysis` finding and approve refused.
 */
const t = useTestNode({ realDb: true, workspace: 'flow-ws-', startTimeoutMs: 120_000 });

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then(json);
const get = (p: string) => fetch(`${t.url}${p}`).then(json);

async function startRun(goal: string) {
  const project = (await post('/v1/projects', { name: goal.slice(0, 40) })).body.id as string;
  const run = await post('/v1/runs', { design_flow: 'mech_v1', project_id: project, goal, start: true });
  expect(run.status).toBe(201);
  return run.body.id as string;
}

async function gateOf(runId: string, phase: string) {
  await expect
    .poll(
      async () => {
        const v = (await get(`/v1/runs/${runId}`)).body;
        if (['failed', 'rejected', 'cancelled'].includes(v.status))
          throw new Error(`run ended: ${JSON.stringify(v.ended)} ${JSON.stringify(v.phases)}`);
        return v.gate?.phase ?? null;
      },
      { timeout: 240_000, interval: 250 },
    )
    .toBe(phase);
  return (await get(`/v1/runs/${runId}`)).body.gate;
}

describe('mech_v1 on the real engines', () => {
  it('takes the 100 N bracket to COMPLETED_VERIFIED through six approved gates', async () => {
    const runId = await startRun(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 100 N at the tip, safety factor 2',
    );
    for (const phase of ['intent', 'needs', 'requirements', 'feasibility', 'design', 'simulation']) {
      const gate = await gateOf(runId, phase);
      expect(gate, phase).toMatchObject({ ready: true });
      const decided = await post(`/v1/runs/${runId}/approval`, { decision: 'approve', reason: `${phase} ok` });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    const lifecycle = (await get(`/v1/runs/${runId}/lifecycle`)).body;
    expect(lifecycle.status).toBe('completed');
    expect(lifecycle.verdict).toBe('COMPLETED_VERIFIED');
    const results = (await get(`/v1/simulation/results?project_id=${lifecycle.project_id}`)).body;
    const stress = results.results?.[0]?.max_von_mises_mpa ?? results[0]?.max_von_mises_mpa;
    // About 60 MPa at the root (singular clamped edge included): well under 125 MPa.
    expect(stress).toBeGreaterThan(45);
    expect(stress).toBeLessThan(125);
  }, 600_000);

  it('stops the 1000 N bracket at the simulation gate with an analysis finding and refuses approve', async () => {
    const runId = await startRun(
      'a steel cantilever bracket 200 x 20 x 10 mm carrying 1000 N at the tip, safety factor 2',
    );
    for (const phase of ['intent', 'needs', 'requirements', 'feasibility', 'design']) {
      const open = await gateOf(runId, phase);
      // The hand calculation (600 MPa vs 125 MPa) blocks feasibility: go on only over it, with a recorded reason.
      const override = phase === 'feasibility' ? { override_reason: 'let the FEA show it' } : {};
      expect(open.ready, phase).toBe(phase !== 'feasibility');
      expect(
        (await post(`/v1/runs/${runId}/approval`, { decision: 'approve', reason: 'ok', ...override })).status,
      ).toBe(200);
    }
    const gate = await gateOf(runId, 'simulation');
    expect(gate.ready).toBe(false);
    expect(gate.findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'analysis', severity: 'error' })]),
    );
    expect(gate.findings.find((f: { kind: string }) => f.kind === 'analysis').message).toMatch(
      /gives (5|6|7)\d\d(\.\d+)? MPa/,
    );
    const refused = await post(`/v1/runs/${runId}/approval`, { decision: 'approve', reason: 'ship it' });
    expect(refused.status).toBe(409);
  }, 600_000);
});
